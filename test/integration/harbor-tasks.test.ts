import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Experiment } from '../../src/core/experiment.ts';
import { ModelScriptSchema } from '../../src/formats/model-script.ts';
import { sandboxAvailability } from '../../src/sandbox/registry.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

const available = await sandboxAvailability('bwrap');
if (!available.ok) console.warn(`Harbor task runs skipped: ${available.reason}`);

const EXAMPLES = 'suites/harbor-examples';
/** The pinned real Claude Code (.ci/install-tools). */
const AGENTS_BIN = join(ROOT, '.tools/agents/node_modules/.bin');
const FIXTURES = 'test/fixtures/harbor';

async function runJson(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Experiment> {
  const result = await cli(['run', ...args, '--no-store', '--no-progress', '--reporter', 'json'], ROOT, env);
  expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  return JSON.parse(result.stdout) as Experiment;
}

describe('Harbor task folders (built CLI)', () => {
  it('validate reads a folder of task folders', async () => {
    const result = await cli(['validate', EXAMPLES]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`OK ${EXAMPLES}: 4 tasks (harbor)`);
  });

  it('validate locates a task.toml error at its line', async () => {
    const result = await cli(['validate', `${FIXTURES}/bad-toml`]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${FIXTURES}/bad-toml/bad/task.toml:7:1: verifier.timeout_sec: wrong type string (expected number)`,
    );
  });

  it('refuses a task that needs an image when no container engine answers, naming its task.toml', async () => {
    const result = await cli(['run', `${FIXTURES}/needs-image`, '--harness', 'oracle', '--no-store']);
    // This machine has no engine; on one with docker the task would run instead.
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /needs-image\/py-task\/task\.toml:1:1: environment: task fixture\/py-task refused: it needs the docker sandbox, and docker/,
    );
    expect(result.stdout).not.toContain('PASS');
  });

  describe.skipIf(!available.ok)('in bwrap', () => {
    it('every example passes with the oracle; rewards become scores, multi-metric too', async () => {
      const experiment = await runJson([EXAMPLES, '--harness', 'oracle']);
      const byTask = new Map(experiment.records.map((r) => [r.task_id, r]));
      expect([...byTask.keys()].sort()).toEqual([
        'harnesseval/hello-file',
        'harnesseval/node-sum',
        'harnesseval/notes-steps',
        'harnesseval/word-count',
      ]);
      for (const record of experiment.records) expect(record.outcome, record.task_id).toBe('pass');
      expect(byTask.get('harnesseval/node-sum')?.scores).toMatchObject({ reward: 1, correctness: 1 });
      const steps = byTask.get('harnesseval/notes-steps')?.metadata['steps'] as {
        id: string;
        score: number;
      }[];
      expect(steps.map((s) => [s.id, s.score])).toEqual([
        ['scaffold', 1],
        ['append', 1],
      ]);
      expect(byTask.get('harnesseval/hello-file')?.evaluations[0]?.explanation).toBe('reward.txt: reward=1');
    });

    it('a harness that does nothing fails every task, partial rewards kept, min_reward stops the steps', async () => {
      const experiment = await runJson([EXAMPLES, '--harness', `${FIXTURES}/harness/nop.yaml`]);
      for (const record of experiment.records) expect(record.outcome, record.task_id).toBe('fail');
      const byTask = new Map(experiment.records.map((r) => [r.task_id, r]));
      expect(byTask.get('harnesseval/node-sum')?.scores).toMatchObject({ reward: 0, correctness: 0.25 });
      const notes = byTask.get('harnesseval/notes-steps');
      expect(notes?.metadata['stopped_after_step']).toBe('scaffold');
      expect(notes?.metadata['steps']).toHaveLength(1);
    });

    it('a harness cannot read the tests before the verifier runs', async () => {
      const experiment = await runJson(
        [EXAMPLES, '--harness', `${FIXTURES}/harness/peek.yaml`, '--filter-id', '*hello-file'],
        { TASKS_DIR: join(ROOT, EXAMPLES) },
      );
      const record = experiment.records[0];
      expect(record?.output.output).toBe('done');
      expect(record?.outcome).toBe('pass');
    });

    // CI installs the CLI (.ci/install-tools): without it this test fails, it never passes silently.
    it('real Claude Code solves every example inside bwrap, reaching only its scripted model through the gateway', async () => {
      expect(existsSync(join(AGENTS_BIN, 'claude')), `${AGENTS_BIN}/claude: run .ci/install-tools`).toBe(
        true,
      );
      // The tasks' default network is none: the gateway is the one thing the sandbox lets through.
      const experiment = await runJson(
        [EXAMPLES, '--harness', 'examples/claude-code/harbor.yaml', '-j', '2'],
        {
          PATH: `${AGENTS_BIN}:${process.env['PATH']}`,
        },
      );
      expect(experiment.records).toHaveLength(4);
      for (const record of experiment.records) {
        const name = record.task_id.replace('harnesseval/', '');
        const script = ModelScriptSchema.parse(
          parse(readFileSync(join(ROOT, `examples/claude-code/scripts/harnesseval/${name}.yaml`), 'utf8')),
        );
        expect(record.outcome, `${record.task_id}: ${record.output.error ?? ''}`).toBe('pass');
        // Every model call went through the gateway, with the usage the script set.
        const calls = record.trace.agent_calls;
        expect(calls.map((c) => c.metadata['source'])).toEqual(script.turns.map(() => 'gateway'));
        expect(calls.map((c) => [c.tokens_in, c.tokens_out])).toEqual(
          script.turns.map((t) => [
            (t.usage?.input_tokens ?? 0) +
              (t.usage?.cache_read_tokens ?? 0) +
              (t.usage?.cache_write_tokens ?? 0),
            t.usage?.output_tokens ?? 0,
          ]),
        );
        // Claude Code ran the scripted tools itself, on the workspace as the sandbox shows it (/app).
        expect(record.output.tool_calls.map((c) => c.tool_name)).toEqual(
          script.turns.flatMap((t) => t.tool_calls.map((c) => c.name)),
        );
        expect(record.output.tool_calls.every((c) => c.status === 'success')).toBe(true);
        expect(record.cost_usd).toBeGreaterThan(0);
      }
      const hello = experiment.records.find((r) => r.task_id === 'harnesseval/hello-file');
      expect(hello?.output.tool_calls[0]?.args).toMatchObject({ file_path: '/app/hello.txt' });
    }, 240_000);

    // CI installs the CLI (.ci/install-tools): without it this test fails, it never passes silently.
    it('real Codex solves hello-file inside bwrap with no network, its shell command run at /app', async () => {
      expect(existsSync(join(AGENTS_BIN, 'codex')), `${AGENTS_BIN}/codex: run .ci/install-tools`).toBe(true);
      const experiment = await runJson(
        [
          EXAMPLES,
          '--filter-id',
          '*hello-file',
          '--harness',
          'examples/codex/harbor.yaml',
          '--sandbox',
          'bwrap',
          '--sandbox-network',
          'none',
        ],
        { PATH: `${AGENTS_BIN}:${process.env['PATH']}` },
      );
      const record = experiment.records[0];
      expect(record?.outcome, record?.output.error ?? '').toBe('pass');
      const script = ModelScriptSchema.parse(
        parse(readFileSync(join(ROOT, 'examples/codex/scripts/harnesseval/hello-file.yaml'), 'utf8')),
      );
      // The model calls went through the gateway (the one thing the sandbox lets through), as scripted.
      const calls = record?.trace.agent_calls ?? [];
      expect(calls.map((c) => [c.metadata['source'], c.tokens_in, c.tokens_out, c.cached_tokens])).toEqual(
        script.turns.map((t) => [
          'gateway',
          (t.usage?.input_tokens ?? 0) + (t.usage?.cache_read_tokens ?? 0),
          t.usage?.output_tokens ?? 0,
          t.usage?.cache_read_tokens ?? 0,
        ]),
      );
      expect(record?.output.metadata['harness_reported']).toMatchObject({ agent_calls: 2, matched: 2 });
      // Codex ran the command itself, in the workspace as the sandbox shows it (not the host's folder).
      expect(record?.output.tool_calls.map((c) => [c.tool_name, c.status, c.result])).toEqual([
        ['shell', 'success', '/app\nHello, world!\n'],
      ]);
      // 5200 + 300 uncached input at $1.25/M, 5200 cached at $0.125/M, 60 output at $10/M.
      expect(record?.cost_usd).toBeCloseTo((5500 * 1.25 + 5200 * 0.125 + 60 * 10) / 1e6, 10);
    }, 240_000);

    it('validate --oracle reports the task whose own solution fails', async () => {
      const result = await cli(['validate', '--oracle', `${FIXTURES}/broken-oracle`, EXAMPLES]);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(`ORACLE FAIL ${FIXTURES}/broken-oracle: 1 task(s)`);
      expect(result.stdout).toContain(`ORACLE OK ${EXAMPLES}`);
      expect(result.stderr).toContain('oracle failed task fixture/wrong-solution: reward.txt: reward=0');
    });
  });
});
