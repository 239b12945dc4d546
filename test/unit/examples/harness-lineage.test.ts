import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type LineageRates,
  LineageRatesSchema,
  lineageHarness,
  MODEL_PRICES,
  solutionDirFor,
} from '../../../examples/harness-lineage/harness.ts';
import { poissonQuantile, prng } from '../../../examples/harness-lineage/prng.ts';
import type { AgentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { TaskSchema } from '../../../src/core/task.ts';
import { harnessAgent } from '../../../src/instrument/harness.ts';
import { DEFAULT_PRICES } from '../../../src/instrument/pricing.ts';
import { processMetrics } from '../../../src/instrument/process-metrics.ts';

const lineageDir = fileURLToPath(new URL('../../../examples/harness-lineage/', import.meta.url));
const VERSIONS = ['0.2.0', '0.3.0', '0.3.1', '0.4.0', '0.5.0'] as const;

async function versionRates(version: string): Promise<LineageRates> {
  const raw: unknown = parse(await readFile(join(lineageDir, `v${version}.yaml`), 'utf8'));
  const config = HarnessConfigSchema.parse(raw);
  expect(config).toMatchObject({ name: 'tf-product-dev-harness', version, adapter: 'function' });
  expect(config.agents).toEqual(['planner', 'developer', 'reviewer', 'qa']);
  expect(config.trust_tier).toBe('supervised');
  expect(config.options['module']).toBe('./harness.ts#lineageHarness');
  return LineageRatesSchema.parse(config.options['options']);
}

// A tiny suite layout: codebases/<id> is the starter, solutions/<id> the reference solution.
let root: string;
let codebase: string;
const task = () =>
  TaskSchema.parse({ id: 'mini', input: 'do it', description: 'a mini task', files: { codebase } });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lineage-test-'));
  codebase = join(root, 'codebases', 'mini');
  await mkdir(codebase, { recursive: true });
  await writeFile(join(codebase, 'a.txt'), 'starter\n');
  await mkdir(join(root, 'solutions', 'mini', 'src', 'deep'), { recursive: true });
  await writeFile(join(root, 'solutions', 'mini', 'a.txt'), 'solved\n');
  await writeFile(join(root, 'solutions', 'mini', 'src', 'deep', 'b.txt'), 'new file\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function runOnce(
  rates: LineageRates,
  seed: number,
): Promise<{ output: AgentOutput; workspace: string }> {
  const workspace = await mkdtemp(join(root, 'ws-'));
  await writeFile(join(workspace, 'a.txt'), 'starter\n');
  const agent = harnessAgent(lineageHarness, 'tf-product-dev-harness', rates);
  const output = await agent.run('do it', {
    task: task(),
    epoch: 0,
    trialId: 'mini#0',
    signal: new AbortController().signal,
    env: { HARNESSEVAL_SEED: String(seed) },
    workspace,
  });
  return { output, workspace };
}

/** The trace without wall-clock timestamps, which differ between runs by design. */
function withoutTimes(output: AgentOutput): unknown {
  return JSON.parse(JSON.stringify(output.trace, (key, value) => (key === 'at' ? undefined : value)));
}

describe('the harness lineage (a simulation)', () => {
  it('ships five versions whose rates improve from version to version', async () => {
    const rates = await Promise.all(VERSIONS.map(versionRates));
    for (let i = 1; i < rates.length; i++) {
      const [before, after] = [rates[i - 1]!, rates[i]!];
      expect(after.unplanned_prompts).toBeLessThan(before.unplanned_prompts);
      expect(after.unplanned_hitl).toBeLessThan(before.unplanned_hitl);
      expect(after.first_pass_approval).toBeGreaterThan(before.first_pass_approval);
      expect(after.apply_miss).toBeLessThan(before.apply_miss);
      expect(after.token_scale).toBeLessThanOrEqual(before.token_scale);
    }
  });

  it('prices its models like the price table', () => {
    for (const [model, price] of Object.entries(MODEL_PRICES)) {
      expect(DEFAULT_PRICES.models[`anthropic/${model}`]).toMatchObject(price);
    }
  });

  it('copies the reference solution over the workspace and reports the pipeline', async () => {
    const best = { ...(await versionRates('0.5.0')), apply_miss: 0 };
    const { output, workspace } = await runOnce(best, 3);
    expect(output.error).toBeUndefined();
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('solved\n');
    expect(await readFile(join(workspace, 'src', 'deep', 'b.txt'), 'utf8')).toBe('new file\n');
    expect(output.output).toEqual({ applied: ['a.txt', join('src', 'deep', 'b.txt')], missed: [] });
    expect(output.tool_calls.map((t) => t.tool_name)).toEqual(['write_file', 'write_file']);
    const trace = output.trace!;
    expect(trace.prompts[0]).toMatchObject({ kind: 'planned', role: 'planner' });
    expect(new Set(trace.agent_calls.map((c) => c.role))).toEqual(
      new Set(['planner', 'developer', 'reviewer', 'qa']),
    );
    for (const call of trace.agent_calls) {
      expect(call.tokens_in).toBeGreaterThan(0);
      expect(call.cost_usd).toBeGreaterThan(0);
    }
    expect(output.usage.cost_usd).toBeCloseTo(
      trace.agent_calls.reduce((s, c) => s + (c.cost_usd ?? 0), 0),
      9,
    );
    const verdicts = trace.human.filter((h) => h.action === 'approve' || h.action === 'reject');
    expect(verdicts.length).toBeGreaterThan(0);
  });

  it('misses solution files at its apply_miss rate, and says so with a CB1 breaker', async () => {
    const sloppy = { ...(await versionRates('0.2.0')), apply_miss: 1 };
    const { output, workspace } = await runOnce(sloppy, 1);
    expect(output.output).toMatchObject({ applied: [], missed: ['a.txt', join('src', 'deep', 'b.txt')] });
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('starter\n');
    expect(output.trace!.circuit_breakers.map((b) => b.type)).toContain('CB1:test-failure');
  });

  it('is reproducible with the same seed and varies with the seed', async () => {
    const rates = await versionRates('0.3.1');
    const a = await runOnce(rates, 42);
    const b = await runOnce(rates, 42);
    expect(withoutTimes(a.output)).toEqual(withoutTimes(b.output));
    expect(a.output.output).toEqual(b.output.output);
    const others = await Promise.all([1, 2, 3].map((seed) => runOnce(rates, seed)));
    const distinct = new Set([a, ...others].map((r) => JSON.stringify(withoutTimes(r.output))));
    expect(distinct.size).toBeGreaterThan(1);
  });

  it('with the same seed, a later version is never worse on any task, and is better on average', async () => {
    const [old, next] = await Promise.all([versionRates('0.2.0'), versionRates('0.5.0')]);
    const totals = { old: { prompts: 0, hitl: 0, cost: 0 }, next: { prompts: 0, hitl: 0, cost: 0 } };
    for (let seed = 0; seed < 40; seed++) {
      const [o, n] = [(await runOnce(old, seed)).output, (await runOnce(next, seed)).output];
      const [mo, mn] = [processMetrics(o.trace!, []), processMetrics(n.trace!, [])];
      expect(mn.prompts_unplanned).toBeLessThanOrEqual(mo.prompts_unplanned);
      expect(mn.hitl_unplanned).toBeLessThanOrEqual(mo.hitl_unplanned);
      expect(mn.circuit_breakers_fired).toBeLessThanOrEqual(mo.circuit_breakers_fired);
      if (mo.first_pass_approval === true) expect(mn.first_pass_approval).toBe(true);
      const missed = (x: AgentOutput) => (x.output as { missed: string[] }).missed.length;
      expect(missed(n)).toBeLessThanOrEqual(missed(o));
      totals.old.prompts += mo.prompts_unplanned;
      totals.next.prompts += mn.prompts_unplanned;
      totals.old.hitl += mo.hitl_unplanned;
      totals.next.hitl += mn.hitl_unplanned;
      totals.old.cost += o.usage.cost_usd ?? 0;
      totals.next.cost += n.usage.cost_usd ?? 0;
    }
    expect(totals.next.prompts).toBeLessThan(totals.old.prompts / 2);
    expect(totals.next.hitl).toBeLessThan(totals.old.hitl / 2);
    expect(totals.next.cost).toBeLessThan(totals.old.cost * 0.6);
    // The configured means show through: about 12.1 unplanned prompts per task for v0.2.0.
    expect(totals.old.prompts / 40).toBeGreaterThan(10);
    expect(totals.old.prompts / 40).toBeLessThan(14);
  });

  it('fails clearly on a task without a codebase, a missing solution or bad options', async () => {
    expect(() => solutionDirFor(TaskSchema.parse({ id: 'x', input: 'x' }))).toThrow(/no codebase/);
    expect(() =>
      solutionDirFor(
        TaskSchema.parse({ id: 'x', input: 'x', files: { codebase: join(root, 'codebases', 'nope') } }),
      ),
    ).toThrow(/no reference solution/);
    const agent = harnessAgent(lineageHarness, 'h', { unplanned_prompts: -1 });
    const output = await agent.run('x', {
      task: task(),
      epoch: 0,
      trialId: 'mini#0',
      signal: new AbortController().signal,
      env: {},
      workspace: root,
    });
    expect(output.error).toMatch(/unplanned_prompts|first_pass_approval/);
  });

  it('draws Poisson counts by quantile, monotone in the mean', () => {
    expect(poissonQuantile(0.5, 0)).toBe(0);
    expect(poissonQuantile(0, 5)).toBe(0);
    const random = prng(9);
    let sum = 0;
    for (let i = 0; i < 5000; i++) {
      const u = random();
      const [low, high] = [poissonQuantile(u, 3.3), poissonQuantile(u, 11.3)];
      expect(low).toBeLessThanOrEqual(high);
      sum += high;
    }
    expect(sum / 5000).toBeGreaterThan(10.8);
    expect(sum / 5000).toBeLessThan(11.8);
  });
});
