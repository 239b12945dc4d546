import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { atifToTrace } from '../../src/formats/atif.ts';
import { AtifTrajectorySchema, atifStrictIssues } from '../../src/formats/atif-schema.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

let dir: string;
let experiment: Experiment;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atif-cli-'));
  cpSync(join(ROOT, 'test/fixtures/atif'), dir, { recursive: true });
  const run = await cli(
    [
      'run',
      'benchmark.yaml',
      '--harness',
      'harness.yaml',
      '--store',
      'eval.db',
      '--no-progress',
      '--reporter',
      'json',
    ],
    dir,
  );
  expect(run.status, run.stderr).toBe(0);
  experiment = JSON.parse(run.stdout) as Experiment;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ATIF through the built CLI', () => {
  it('trace_file: an ATIF trajectory fills the trace: calls, sub-agent, tool calls, tokens and cost', () => {
    const record = experiment.records.find((r) => r.task_id === 'greet-ada');
    expect(record?.outcome).toBe('pass');
    expect(record?.trace.agent_calls.map((c) => [c.role, c.model, c.tokens_in])).toEqual([
      ['agent', 'tiny-model', 100],
      ['agent', 'tiny-model', 130],
      ['reviewer', 'judge-model', 50],
    ]);
    expect(record?.trace.agent_invocations).toEqual([{ name: 'reviewer', id: 'review-1' }]);
    expect(record?.output.tool_calls).toEqual([
      { tool_name: 'lookup', args: { q: 'Ada' }, result: 'Ada Lovelace', status: 'success', id: 'call-1' },
    ]);
    expect(record?.output.usage).toEqual({
      tokens_in: 280,
      tokens_out: 28,
      cached_tokens: 40,
      cost_usd: 0.0035,
    });
  });

  it('runs export --format atif writes one strict ATIF v1.7 file per trial that reads back to the same trace', async () => {
    const out = join(dir, 'atif-out');
    const result = await cli(
      ['runs', 'export', experiment.id, '--store', 'eval.db', '--format', 'atif', '-o', out],
      dir,
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('(2 ATIF trajectories)');
    expect(readdirSync(out).sort()).toEqual(['greet-ada-again__0.json', 'greet-ada__0.json']);
    const doc = JSON.parse(readFileSync(join(out, 'greet-ada__0.json'), 'utf8')) as unknown;
    expect(atifStrictIssues(doc)).toEqual([]);
    const back = atifToTrace(AtifTrajectorySchema.parse(doc));
    const record = experiment.records.find((r) => r.task_id === 'greet-ada');
    expect(back.trace).toEqual(record?.trace);
    expect(back.tool_calls).toEqual(record?.output.tool_calls);
    expect(back.usage).toEqual(record?.output.usage);
    expect(back.output).toBe('Hello, Ada!');
  });

  it('runs export --format atif without -o is wrong usage', async () => {
    const result = await cli(
      ['runs', 'export', experiment.id, '--store', 'eval.db', '--format', 'atif'],
      dir,
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('give the folder with -o <dir>');
  });

  it('ingest-atif shows what it takes from a trajectory', async () => {
    const result = await cli(['ingest-atif', 'test/fixtures/atif/atif-trajectory.json']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ATIF-v1.7, agent atif-agent 0.1.0, 3 steps');
    expect(result.stdout).toContain('model calls: 3  tokens: 280 in / 28 out (40 cached)');
    expect(result.stdout).toContain('sub-agents: 1 (reviewer)');
    expect(result.stdout).toContain('  lookup (call-1) success');
  });

  it('ingest-atif locates a field ATIF does not allow', async () => {
    const result = await cli(['ingest-atif', 'test/fixtures/atif/bad-trajectory.json']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /bad-trajectory\.json:5:18: steps\[0\]\.step_id: 0 is too small \(expected a number > 0\)/,
    );
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('both ingest commands share one skeleton: --format choices, a missing file, located bad JSON', async () => {
    for (const command of ['ingest-atif', 'ingest-otel']) {
      const xml = await cli([command, 'test/fixtures/atif/atif-trajectory.json', '--format', 'xml']);
      expect(xml.status).toBe(2);
      expect(xml.stderr).toContain("argument 'xml' is invalid. Allowed choices are text, json.");
      const missing = await cli([command, 'test/fixtures/atif/no-such-file.json']);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('cannot read test/fixtures/atif/no-such-file.json');
      const bad = await cli([command, 'test/fixtures/atif/harness.yaml']);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/harness\.yaml:\d+:\d+: /);
      expect(bad.stderr).not.toMatch(/at .*\.js:\d+/);
    }
    const json = await cli(['ingest-atif', 'test/fixtures/atif/atif-trajectory.json', '--format', 'json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout).tool_calls[0]).toMatchObject({ tool_name: 'lookup', id: 'call-1' });
  });
});
