import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import type { RunRecord } from '../../src/core/run-record.ts';
import { ModelScriptSchema } from '../../src/formats/model-script.ts';
import { Gateway } from '../../src/gateway/server.ts';
import { harnessevalCommands } from '../helpers/doc-commands.ts';
import { survivors } from '../helpers/processes.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';
import { type ScriptFigures, scriptFigures } from '../helpers/script-figures.ts';

// The real Claude Code and Codex CLIs (pinned by .ci/install-tools in .tools/agents), run offline
// by the built CLI against the gateway's scripted model on product-dev tasks.
const BIN = join(ROOT, '.tools/agents/node_modules/.bin');
const missing = ['claude', 'codex'].filter((name) => !existsSync(join(BIN, name)));
let ran = 0;
let defined = 0;
afterAll(() => {
  console.log(`real coding-agent CLI tests run: ${ran} of ${defined}`);
});
/** A test that drives the real CLIs: counted, so the run says how many did. */
const realIt = (name: string, fn: () => Promise<void>) => {
  defined++;
  it(name, async () => {
    ran++;
    await fn();
  });
};

// CI installs the CLIs (.ci/install-tools): without them this file fails, it never passes silently.
it('has the pinned Claude Code and Codex CLIs in .tools/agents', () => {
  expect(missing, `missing from ${BIN}: run .ci/install-tools`).toEqual([]);
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-real-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ PATH: `${BIN}:${process.env['PATH']}`, ...extra });

let runs = 0;
async function run(
  args: readonly string[],
  extra: Record<string, string> = {},
): Promise<{ experiment: Experiment; stderr: string; status: number | null }> {
  const out = join(dir, `run-${++runs}.json`);
  const noStore = args.includes('--store') ? [] : ['--no-store'];
  const result = await cli(['run', ...args, ...noStore, '--no-progress', '-o', out], ROOT, env(extra));
  if (!existsSync(out)) throw new Error(`no report (exit ${result.status}): ${result.stderr}`);
  return {
    experiment: ExperimentSchema.parse(JSON.parse(await readFile(out, 'utf8'))),
    stderr: result.stderr,
    status: result.status,
  };
}

const record = (e: Experiment, task: string): RunRecord => {
  const found = e.records.find((r) => r.task_id === task);
  if (found === undefined) throw new Error(`no record for ${task}`);
  return found;
};

function partition<T>(items: readonly T[], pick: (item: T) => boolean): [T[], T[]] {
  return [items.filter(pick), items.filter((item) => !pick(item))];
}

// The commands docs/evaluating-coding-agents.md tells a reader to type, run as they are (plus a
// store or a report file): the first runs Claude Code on one task, the last block is the lineage.
const DOC = 'docs/evaluating-coding-agents.md';
const docBlocks = harnessevalCommands(DOC, readFileSync(join(ROOT, DOC), 'utf8')).filter((b) => b.length > 0);
const [fixCommand] = docBlocks[0] ?? [];
const lineageCommands = docBlocks.at(-1) ?? [];

function expectScriptedRecord(r: RunRecord, figures: ScriptFigures, model: string) {
  const calls = r.trace.agent_calls;
  expect(
    calls.map((c) => [c.model, c.tokens_in, c.tokens_out, c.cached_tokens, c.cache_write_tokens]),
  ).toEqual(
    figures.calls.map((c) => [model, c.tokens_in, c.tokens_out, c.cached_tokens, c.cache_write_tokens]),
  );
  expect(calls.every((c) => c.metadata['source'] === 'gateway' && c.metadata['http_status'] === 200)).toBe(
    true,
  );
  expect(r.metrics).toMatchObject({
    agent_calls: figures.calls.length,
    tokens_in: figures.calls.reduce((s, c) => s + c.tokens_in, 0),
    tokens_out: figures.calls.reduce((s, c) => s + c.tokens_out, 0),
  });
  expect(r.cost_usd).toBeCloseTo(
    figures.calls.reduce((s, c) => s + c.cost, 0),
    10,
  );
  expect(r.metadata['cost_source']).toBe('price_table');
  // What the CLI's own stream said agrees with what the gateway saw, call by call.
  expect(r.output.metadata['harness_reported']).toMatchObject({
    agent_calls: figures.calls.length,
    matched: figures.calls.length,
    tokens_in: r.metrics.tokens_in,
    tokens_out: r.metrics.tokens_out,
  });
  expect(r.output.tool_calls.map((t) => [t.status])).toEqual(figures.tools.map(() => ['success']));
}

// Each test runs real CLIs and then the task's acceptance tests: seconds each, more on a busy machine.
// Concurrent: each test waits mostly on its CLI's subprocesses and the acceptance tests.
describe.skipIf(missing.length > 0)(
  'real Claude Code and Codex, offline, on product-dev tasks',
  { timeout: 300_000, concurrent: true },
  () => {
    realIt(
      'Claude Code fixes bug-fix-regression with scripted Read/Edit/Bash calls: tests pass, figures exact',
      async () => {
        expect(fixCommand).toEqual([
          'run',
          'suites/product-dev/suite.yaml',
          '--filter-id',
          'bug-fix-regression',
          '--harness',
          'examples/claude-code/harness.yaml',
        ]);
        // The README's quick-start line is the same command.
        const readme = harnessevalCommands('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')).flat();
        expect(readme).toContainEqual(fixCommand);
        const { experiment } = await run(fixCommand!.slice(1));
        const r = record(experiment, 'bug-fix-regression');
        expect(r.error).toBeUndefined();
        expect(r.criteria.filter((c) => c.verification === 'automated').map((c) => [c.id, c.status])).toEqual(
          [
            ['ac-01', 'passed'],
            ['ac-02', 'passed'],
            ['ac-03', 'passed'],
            ['ac-04', 'passed'],
          ],
        );
        const figures = await scriptFigures(
          'examples/claude-code/scripts/bug-fix-regression.yaml',
          'claude-sonnet-4-5',
        );
        expectScriptedRecord(r, figures, 'claude-sonnet-4-5');
        expect(r.output.tool_calls.map((t) => t.tool_name)).toEqual(['Read', 'Read', 'Edit', 'Edit', 'Bash']);
        // Claude Code's own cost estimate, kept beside ours: the same list prices, the same figure.
        expect(r.output.metadata['reported_cost_usd']).toBeCloseTo(r.cost_usd ?? 0, 10);
        expect(r.output.metadata).toMatchObject({ subtype: 'success', claude_code_version: '2.1.197' });
        expect(r.trace.circuit_breakers).toEqual([]);
      },
    );

    realIt(
      'Codex fixes bug-fix-regression with scripted exec_command/apply_patch calls: tests pass, figures exact',
      async () => {
        const { experiment } = await run([
          'suites/product-dev/suite.yaml',
          '--filter-id',
          'bug-fix-regression',
          '--harness',
          'examples/codex/harness.yaml',
        ]);
        const r = record(experiment, 'bug-fix-regression');
        expect(r.error).toBeUndefined();
        expect(r.criteria.filter((c) => c.status === 'passed').map((c) => c.id)).toEqual([
          'ac-01',
          'ac-02',
          'ac-03',
          'ac-04',
        ]);
        const pricing = parse(await readFile(join(ROOT, 'examples/codex/harness.yaml'), 'utf8')).pricing;
        const figures = await scriptFigures('examples/codex/scripts/bug-fix-regression.yaml', 'gpt-5.5', {
          ...pricing,
          models: pricing.models,
        });
        expectScriptedRecord(r, figures, 'gpt-5.5');
        expect(r.output.tool_calls.map((t) => t.tool_name)).toEqual(['shell', 'apply_patch', 'shell']);
        expect(r.trace.agent_calls.map((c) => c.metadata['reasoning_tokens'])).toEqual([64, 200, 0, 0]);
        expect(r.output.metadata['harness_reported']).toMatchObject({ matched_by: 'order' });
      },
    );

    realIt(
      'gives the right outcome and breaker when the model gives up, loops past max_turns or spends past the budget',
      async () => {
        const { experiment } = await run([
          'suites/product-dev/suite.yaml',
          '--filter-id',
          '[cr]*',
          '-j',
          '3',
          '--harness',
          'test/fixtures/coding-agents/product-dev/harness-failing.yaml',
        ]);
        const outcome = (task: string) => {
          const r = record(experiment, task);
          return [
            r.outcome,
            r.error,
            r.trace.circuit_breakers.map((b) => b.type),
            r.output.metadata['subtype'],
          ];
        };
        expect(outcome('ci-pipeline-setup')).toEqual(['fail', undefined, [], 'success']);
        expect(outcome('refactor-extract-service')).toEqual([
          'fail',
          undefined,
          ['error_max_turns'],
          'error_max_turns',
        ]);
        expect(outcome('crud-api')).toEqual([
          'fail',
          undefined,
          ['error_max_budget_usd'],
          'error_max_budget_usd',
        ]);
        const budget = record(experiment, 'crud-api');
        // Two calls at $0.1801 each went past $0.25; the gateway priced exactly what the CLI reports.
        expect(budget.trace.agent_calls).toHaveLength(2);
        expect(budget.cost_usd).toBeCloseTo(2 * ((60000 * 3 + 10 * 15) / 1e6), 10);
        expect(budget.output.metadata['reported_cost_usd']).toBeCloseTo(budget.cost_usd ?? 0, 10);
        expect(record(experiment, 'refactor-extract-service').trace.agent_calls).toHaveLength(3);
      },
    );

    realIt(
      'kills Claude Code stuck on a command that never ends at the trial timeout, leaving no process behind',
      async () => {
        const marker = `he-hang-${process.pid}-${Date.now()}`;
        // 40 s: enough for Claude Code to start, ask the model and start the command even at load 20+
        // (the other tests run meanwhile, so the wait costs the file no time).
        const { experiment } = await run(
          [
            'suites/product-dev/suite.yaml',
            '--filter-id',
            'bug-fix-regression',
            '--timeout',
            '40',
            '--harness',
            'test/fixtures/coding-agents/product-dev/harness-hang.yaml',
          ],
          { HE_TEST_MARKER: marker },
        );
        const r = record(experiment, 'bug-fix-regression');
        expect(r.outcome).toBe('error');
        expect(r.output.error_kind).toBe('timeout');
        // What it did before it hung is still in the record: the call that asked for the command.
        const [first, ...later] = r.trace.agent_calls;
        expect(first?.metadata['tool_calls_requested']).toEqual(['Bash']);
        // Killed mid-command, Claude Code may still ask the model once before it dies: unanswered.
        expect(later.every((c) => c.error !== undefined)).toBe(true);
        expect(r.output.tool_calls.map((t) => [t.tool_name, t.args['command']])).toEqual([
          ['Bash', 'sleep 600'],
        ]);
        expect(await survivors(marker, 5000, 'environ')).toEqual([]);
      },
    );

    realIt(
      'records a cassette from a forwarded run and replays it with Claude Code; a changed request is a clear cassette_miss',
      async () => {
        const script = ModelScriptSchema.parse(
          parse(await readFile(join(ROOT, 'test/fixtures/coding-agents/tiny/script.yaml'), 'utf8')),
        );
        const provider = await Gateway.start({ upstream: { kind: 'script', script } });
        const cassette = join(dir, 'greeting.cassette.jsonl');
        const harness = async (name: string, gateway: object, options: object = {}) => {
          const file = join(dir, `${name}.yaml`);
          await writeFile(
            file,
            JSON.stringify({
              name,
              adapter: 'claude-code',
              model: 'claude-sonnet-4-5',
              options: { model: 'claude-sonnet-4-5', ...options },
              gateway,
            }),
          );
          return file;
        };
        const task = 'test/fixtures/coding-agents/tiny/task.yaml';
        try {
          const route = provider.openRoute();
          const recording = await run([
            task,
            '--harness',
            await harness('recording', { upstream: route.baseUrl, record_cassette: cassette }),
          ]);
          expect(recording.experiment.records[0]?.outcome).toBe('pass');
          expect((await provider.closeRoute(route)).length).toBe(2);
        } finally {
          await provider.close();
        }
        expect((await readFile(cassette, 'utf8')).trim().split('\n')).toHaveLength(2);
        const replay = await run([
          task,
          '--harness',
          await harness('replaying', { upstream: 'cassette', cassette }),
        ]);
        const replayed = replay.experiment.records[0]!;
        expect(replayed.outcome).toBe('pass');
        expect(
          replayed.trace.agent_calls.map((c) => [c.metadata['upstream'], c.tokens_in, c.tokens_out]),
        ).toEqual([
          ['cassette', 11100, 45],
          ['cassette', 9300, 12],
        ]);
        const changed = await run([
          task,
          '--harness',
          await harness('changed', { upstream: 'cassette', cassette }, { append_system_prompt: 'Be terse.' }),
        ]);
        const missed = changed.experiment.records[0]!;
        expect(missed.outcome).toBe('error');
        expect(missed.trace.agent_calls[0]?.error).toMatch(
          /^cassette_miss: cassette .*greeting\.cassette\.jsonl has no answer for request 1/,
        );
      },
    );

    realIt(
      "runs the doc's lineage commands: three real Claude Code versions compared and on a timeline",
      async () => {
        const [runs, rest] = partition(lineageCommands, (c) => c[0] === 'run');
        expect(runs.map((c) => c.at(-1))).toEqual(
          ['1.0.0', '1.1.0', '1.2.0'].map((v) => `examples/harness-lineage/claude-code/v${v}.yaml`),
        );
        const store = join(dir, 'lineage.db');
        const experiments = await Promise.all(
          runs.map(async (c) => (await run([...c.slice(1), '--store', store])).experiment),
        );
        const [old, , next] = experiments.map((e) => ({
          fix: record(e, 'bug-fix-regression'),
          ci: record(e, 'ci-pipeline-setup'),
        }));
        const passed = (r: RunRecord) => r.criteria.filter((c) => c.status === 'passed').map((c) => c.id);
        expect(passed(old!.ci)).toEqual(['ac-01', 'ac-02']);
        expect(passed(next!.ci)).toEqual(['ac-01', 'ac-02', 'ac-03', 'ac-04']);
        const automated = (r: RunRecord) =>
          r.criteria.filter((c) => c.verification === 'automated').map((c) => c.status);
        expect(automated(next!.fix)).toEqual(['passed', 'passed', 'passed', 'passed']);
        // 1.0.0 spends less on the CI task only because it skips half the work.
        expect(old!.ci.output.tool_calls.map((t) => t.tool_name)).toEqual(['Bash', 'Write']);
        expect(next!.ci.output.tool_calls.map((t) => t.tool_name)).toEqual(['Read', 'Read', 'Edit', 'Write']);
        // On the bug fix 1.0.0 wanders: more model calls and a failed tool call; 1.2.0 has none.
        const failedTools = (r: RunRecord) =>
          r.output.tool_calls.filter((t) => t.status !== 'success').length;
        expect(failedTools(old!.fix)).toBeGreaterThan(0);
        expect(failedTools(next!.fix)).toBe(0);
        expect(old!.fix.trace.agent_calls.length).toBeGreaterThan(next!.fix.trace.agent_calls.length);
        const [compare, timeline] = rest;
        expect([compare?.[0], timeline?.[0]]).toEqual(['compare', 'timeline']);
        const compared = await cli([...compare!, '--store', store], ROOT, env());
        expect(compared.stderr).toBe('');
        expect(compared.status).toBe(0);
        expect(compared.stdout).toContain('claude-code-product-dev');
        expect(compared.stdout).toMatch(/functional_completeness/);
        const shown = await cli([...timeline!, '--store', store], ROOT, env());
        expect(shown.status).toBe(0);
        expect(shown.stdout).toMatch(/1\.0\.0[\s\S]*1\.1\.0[\s\S]*1\.2\.0/);
      },
    );
  },
);
