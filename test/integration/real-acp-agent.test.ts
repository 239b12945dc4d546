import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';
import { scriptFigures } from '../helpers/script-figures.ts';

// Real ACP agents, Zed's Claude Code bridge and OpenCode (pinned by .ci/install-tools in .tools/acp),
// driven by the built CLI's acp adapter, offline: their model calls go to the gateway's scripted model.
const BIN = join(ROOT, '.tools/acp/node_modules/.bin');
const missing = ['claude-agent-acp', 'opencode'].filter((name) => !existsSync(join(BIN, name)));
if (missing.length > 0)
  console.warn(
    `real ACP agent tests skipped: ${missing.join(', ')} absent from ${BIN} (run .ci/install-tools)`,
  );

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-real-acp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(args: readonly string[]): Promise<Experiment> {
  const out = join(dir, `run-${args.length}-${Math.random().toString(36).slice(2)}.json`);
  const result = await cli(['run', ...args, '--no-store', '--no-progress', '-o', out], ROOT, {
    PATH: `${BIN}:${process.env['PATH']}`,
  });
  if (!existsSync(out)) throw new Error(`no report (exit ${result.status}): ${result.stderr}`);
  return ExperimentSchema.parse(JSON.parse(await readFile(out, 'utf8')));
}

describe.skipIf(missing.length > 0)(
  'real ACP agents (claude-agent-acp 0.23.1, opencode 1.18.33), offline, through the acp adapter',
  { timeout: 300_000, concurrent: true },
  () => {
    it('fixes bug-fix-regression with scripted Read/Edit/Bash calls: tests pass, figures exact, permissions counted', async () => {
      const experiment = await run([
        'suites/product-dev/suite.yaml',
        '--filter-id',
        'bug-fix-regression',
        '--harness',
        'examples/acp/harness.yaml',
      ]);
      const r = experiment.records[0]!;
      expect(r.error).toBeUndefined();
      expect(r.criteria.filter((c) => c.verification === 'automated').map((c) => [c.id, c.status])).toEqual([
        ['ac-01', 'passed'],
        ['ac-02', 'passed'],
        ['ac-03', 'passed'],
        ['ac-04', 'passed'],
      ]);
      const figures = await scriptFigures(
        'examples/claude-code/scripts/bug-fix-regression.yaml',
        'claude-sonnet-4-5',
      );
      // Every call, as the gateway saw it, with the model the harness file names and the script's usage.
      const calls = r.trace.agent_calls;
      expect(
        calls.map((c) => [c.model, c.tokens_in, c.tokens_out, c.cached_tokens, c.cache_write_tokens]),
      ).toEqual(
        figures.calls.map((c) => [
          'claude-sonnet-4-5',
          c.tokens_in,
          c.tokens_out,
          c.cached_tokens,
          c.cache_write_tokens,
        ]),
      );
      expect(calls.every((c) => c.metadata['source'] === 'gateway')).toBe(true);
      const sum = (pick: (c: (typeof figures.calls)[number]) => number) =>
        figures.calls.reduce((s, c) => s + pick(c), 0);
      expect(r.metrics).toMatchObject({
        agent_calls: figures.calls.length,
        tokens_in: sum((c) => c.tokens_in),
        tokens_out: sum((c) => c.tokens_out),
      });
      expect(r.cost_usd).toBeCloseTo(
        sum((c) => c.cost),
        10,
      );
      // The agent's own turn total (ACP reports one per prompt, not per call) agrees with the gateway,
      // and so does the cost it reports.
      expect(r.output.metadata['harness_reported']).toMatchObject({
        agent_calls: 1,
        tokens_in: sum((c) => c.tokens_in),
        tokens_out: sum((c) => c.tokens_out),
        cached_tokens: sum((c) => c.cached_tokens),
      });
      expect(r.output.metadata['reported_cost_usd']).toBeCloseTo(r.cost_usd ?? 0, 10);
      // The agent ran the scripted tools itself, named as the model called them.
      expect(r.output.tool_calls.map((t) => [t.tool_name, t.status])).toEqual(
        figures.tools.map((name) => [name, 'success']),
      );
      // It asked before each edit and command (not the reads); the allow policy answered each one.
      expect(r.trace.human.map((h) => [h.action, h.kind, h.note])).toEqual([
        ['permission', 'unplanned', 'allow: Edit src/paginate.ts'],
        ['permission', 'unplanned', 'allow: Edit test/paginate.test.ts'],
        [
          'permission',
          'unplanned',
          'allow: node --import tsx --test test/paginate.test.ts test/search.test.ts test/acceptance/*.test.ts',
        ],
      ]);
      expect(r.metrics).toMatchObject({ hitl_unplanned: 3, hitl_total: 3 });
      expect(r.output.metadata).toMatchObject({ stop_reason: 'end_turn' });
      expect(r.trace.circuit_breakers).toEqual([]);
    });

    it('with permission: deny the scripted command is refused, the task fails and the refusal is a touchpoint', async () => {
      const harness = join(dir, 'deny.yaml');
      const example = await readFile(join(ROOT, 'examples/acp/harness.yaml'), 'utf8');
      await writeFile(
        harness,
        example
          .replace('permission: allow', 'permission: deny')
          .replace(
            'script: ../claude-code/scripts/{task}.yaml',
            `script: ${join(ROOT, 'test/fixtures/coding-agents/tiny/script.yaml')}`,
          ),
      );
      const experiment = await run(['test/fixtures/coding-agents/tiny/task.yaml', '--harness', harness]);
      const r = experiment.records[0]!;
      expect(r.error).toBeUndefined();
      expect(r.outcome).toBe('fail');
      expect(r.output.tool_calls.map((t) => [t.tool_name, t.status])).toEqual([['Bash', 'error']]);
      expect(r.trace.human.map((h) => h.note)).toEqual([
        "deny: printf 'hello from the agent\\n' > greeting.txt",
      ]);
      // Both scripted calls still happened: the model was told of the refusal and answered.
      expect(r.trace.agent_calls.map((c) => [c.tokens_in, c.tokens_out])).toEqual([
        [11100, 45],
        [9300, 12],
      ]);
    });

    it('OpenCode fixes bug-fix-regression through an OpenAI-compatible provider on the gateway: tests pass, figures exact', async () => {
      // OpenCode's first start in a fresh HOME is slow on a loaded machine: more than the suite's 60 s.
      const experiment = await run([
        'suites/product-dev/suite.yaml',
        '--filter-id',
        'bug-fix-regression',
        '--timeout',
        '240',
        '--harness',
        'examples/acp/opencode.yaml',
      ]);
      const r = experiment.records[0]!;
      expect(r.error).toBeUndefined();
      expect(r.criteria.filter((c) => c.verification === 'automated').map((c) => c.status)).toEqual([
        'passed',
        'passed',
        'passed',
        'passed',
      ]);
      const script = 'examples/acp/scripts/opencode/bug-fix-regression.yaml';
      const figures = await scriptFigures(script, 'local-coder', {
        models: { 'openai/local-coder': { input: 1.25, output: 10, cached: 0.125 } },
      });
      // OpenCode asks for the session's title beside the main loop (answered by the fallback), in
      // no fixed order: the calls are the script's turns plus that one.
      const title = { tokens_in: 120, tokens_out: 6, cached_tokens: 0, cache_write_tokens: 0 };
      const key = (c: { tokens_in: number; tokens_out: number; cached_tokens: number }) =>
        `${c.tokens_in}/${c.tokens_out}/${c.cached_tokens}`;
      expect(r.trace.agent_calls.map((c) => [c.model, c.metadata['api'], c.metadata['source']])).toEqual(
        Array.from({ length: figures.calls.length + 1 }, () => ['local-coder', 'openai-chat', 'gateway']),
      );
      expect(r.trace.agent_calls.map(key).sort()).toEqual([...figures.calls, title].map(key).sort());
      const cost = figures.calls.reduce((s, c) => s + c.cost, 0) + (120 * 1.25 + 6 * 10) / 1e6;
      expect(r.cost_usd).toBeCloseTo(cost, 10);
      expect(r.output.tool_calls.map((t) => [t.tool_name, t.status])).toEqual(
        figures.tools.map((name) => [name, 'success']),
      );
      expect(r.output.tool_calls[2]?.result).toMatchObject({ output: 'Edit applied successfully.' });
      // OpenCode asks no permission by default; its ACP usage is its last step's, kept apart.
      expect(r.trace.human).toEqual([]);
      const last = figures.calls.at(-1)!;
      expect(r.output.metadata['harness_reported']).toMatchObject({
        agent_calls: 1,
        tokens_in: last.tokens_in,
        tokens_out: last.tokens_out,
      });
    });
  },
);
