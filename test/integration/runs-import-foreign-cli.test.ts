import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { sandboxAvailability } from '../../src/sandbox/registry.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// `runs import --from harbor` through the built CLI (`npx tsdown` first): a Harbor job folder
// (test/fixtures/import/harbor, written to Harbor's TrialResult schema, see its README) becomes one
// experiment, shown, exported and compared like a native one.
const JOB = 'test/fixtures/import/harbor/2026-11-30__14-02-11';
const MALFORMED = 'test/fixtures/import/harbor-malformed/2026-11-30__bad';
const INSPECT_LOGS = join(ROOT, 'test/fixtures/import/inspect');

let root = '';
let count = 0;
const storeFile = () => {
  count += 1;
  return join(root, `store-${count}.db`);
};

async function importHarbor(store: string, ...extra: string[]) {
  return cli([
    'runs',
    '--store',
    store,
    'import',
    '--from',
    'harbor',
    JOB,
    '--suite',
    'harbor-examples',
    ...extra,
  ]);
}

async function exported(store: string, id: string): Promise<Experiment> {
  const result = await cli(['runs', '--store', store, 'export', id]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Experiment;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'he-import-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('runs import --from harbor (built CLI)', () => {
  it('turns a job folder into one experiment per agent x model x dataset, with a summary of what was not mapped', async () => {
    const store = storeFile();
    const result = await importHarbor(store);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Imported harbor-terminus-2-claude-sonnet-4-5-harbor-exam-[0-9a-f]{8} \(terminus-2 anthropic\/claude-sonnet-4-5, suite harbor-examples: 8 records, 4 pass, 3 fail, 1 error \(1 infra\)\)/,
    );
    // What cannot be mapped is counted by field, never dropped silently.
    expect(result.stdout).toContain(
      '1 x agent_result.rollout_details: token ids, loss masks and logprobs are not kept',
    );
    expect(result.stdout).toContain('1 x harbor_extra_field: a field this importer does not read');
    expect(result.stdout).toContain('1 x step_results: kept in record metadata');

    const experiment = await exported(store, 'harbor-');
    expect(experiment.suite.id).toBe('harbor-examples');
    expect(experiment.harness).toMatchObject({ name: 'terminus-2', version: '2.0.0', adapter: 'harbor' });
    expect(experiment.settings.epochs).toBe(2);
    const byTrial = new Map(
      experiment.records.map((r) => [(r.metadata['harbor'] as { trial_name: string }).trial_name, r]),
    );
    // Epochs number the attempts at each task in start order.
    expect(byTrial.get('hello-file__Ab3')).toMatchObject({
      task_id: 'harnesseval/hello-file',
      epoch: 0,
      outcome: 'pass',
    });
    expect(byTrial.get('hello-file__Cd4')).toMatchObject({ epoch: 1, outcome: 'pass', cost_usd: 0.0058 });
    // The ATIF trajectory becomes the trace, tool calls and final answer.
    const traced = byTrial.get('hello-file__Ab3')!;
    expect(traced.output.output).toBe('Done: hello.txt written.');
    expect(traced.output.tool_calls.map((t) => t.tool_name)).toEqual(['bash']);
    expect(traced.trace.agent_calls).toHaveLength(2);
    expect(traced.output.usage).toMatchObject({
      tokens_in: 2550,
      tokens_out: 100,
      cached_tokens: 2100,
      cost_usd: 0.0063,
    });
    // The environment never came up: an infra error, not a failure of the agent.
    expect(byTrial.get('node-sum__Qx7')).toMatchObject({
      outcome: 'error',
      error_kind: 'infra',
      error: 'EnvironmentStartTimeoutError: Environment failed to start within 600 seconds',
    });
    // Multi-metric rewards: one criterion each; `reward` is the main one.
    const multi = byTrial.get('node-sum__Ef5')!;
    expect(multi.outcome).toBe('fail');
    expect(multi.criteria.map((c) => [c.id, c.status, c.score])).toEqual([
      ['reward', 'failed', 0],
      ['correctness', 'failed', 0.5],
    ]);
    // Harbor verifies after an agent timeout: the reward decides, the exception is kept.
    const timedOut = byTrial.get('word-count__Gh8')!;
    expect(timedOut.outcome).toBe('fail');
    expect(timedOut.metadata['harbor']).toMatchObject({ exception: { type: 'AgentTimeoutError' } });
    // No cost reported stays unknown, never 0.
    expect(byTrial.get('word-count__Ij9')?.cost_usd).toBeNull();
    // A reward only in verifier/reward.txt is read; the verifier's stdout tail is kept.
    const fromFile = byTrial.get('notes-steps__Kl1')!;
    expect(fromFile.outcome).toBe('pass');
    expect(fromFile.criteria[0]?.output_tail).toContain('PASSED');

    // The infra error is left out of the rates and shown as such.
    const successRate = experiment.metrics.find((m) => m.name === 'success_rate')!;
    // The mean over tasks of each task's pass rate: hello-file 1, node-sum 0 (its one decided
    // attempt), word-count 0.5, notes-steps 0.5.
    expect(successRate.value).toBe(0.5);
    expect(successRate.n).toBe(4);
    // Counted as a harness error, the infra failure would make error_rate 1 of 8 trials.
    const errorRate = experiment.metrics.find((m) => m.name === 'error_rate')!;
    expect(errorRate.value).toBe(0);
    expect(errorRate.details).toMatchObject({ infra_errors: 1 });
    expect(successRate.details).toMatchObject({ infra_errors: 1 });
    const shown = await cli(['runs', '--store', store, 'show', 'harbor-']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Imported   harbor test/fixtures/import/harbor/2026-11-30__14-02-11');
    expect(shown.stdout).toContain('1 error (1 infra; infra and environment errors are left out of rates)');
    expect(shown.stdout).toMatch(/success_rate\s+50\.0%.*1 infra error left out/);

    // A trial with no token counts (its environment never came up) has unknown tokens, not 0:
    // the token means leave it out and say so, as the cost figures do.
    const noTokens = byTrial.get('node-sum__Qx7')!;
    expect(noTokens.output.usage.tokens_unknown).toBe(true);
    const tokensIn = experiment.metrics.find((m) => m.name === 'tokens_in')!;
    expect(tokensIn.details).toMatchObject({ unknown_tokens: 1 });
    // node-sum's mean is its one counted trial, not halved by a 0.
    const known = experiment.records.filter((r) => r.output.usage.tokens_unknown !== true);
    const perTask = [...new Set(known.map((r) => r.task_id))].map((task) => {
      const values = known.filter((r) => r.task_id === task).map((r) => r.output.usage.tokens_in);
      return values.reduce((a, b) => a + b, 0) / values.length;
    });
    expect(tokensIn.value).toBeCloseTo(perTask.reduce((a, b) => a + b, 0) / perTask.length, 6);
    expect(shown.stdout).toMatch(/tokens_in .*1 trial with no token count left out/);
  });

  it('refuses to import the same job twice unless --replace', async () => {
    const store = storeFile();
    expect((await importHarbor(store)).status).toBe(0);
    const again = await importHarbor(store);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists .*pass --replace to overwrite it/);
    const replaced = await importHarbor(store, '--replace');
    expect(replaced.status, replaced.stderr).toBe(0);
    const list = await cli(['runs', '--store', store, 'list', '--format', 'json']);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  it('a malformed trial is a located error, exit 1, and no store is created', async () => {
    const store = storeFile();
    const result = await cli(['runs', '--store', store, 'import', '--from', 'harbor', MALFORMED]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${MALFORMED}/broken__Zz1/result.json:7:47: verifier_result.rewards.reward: wrong type string (expected number)`,
    );
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(store)).toBe(false);
  });

  it('a folder that is not a Harbor job says so', async () => {
    const result = await cli([
      'runs',
      '--store',
      storeFile(),
      'import',
      '--from',
      'harbor',
      'test/fixtures/import',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('test/fixtures/import: no trial folder with a result.json in it');
  });

  it('--pass-threshold counts a partial reward as a pass', async () => {
    const store = storeFile();
    expect((await importHarbor(store, '--pass-threshold', '0.5')).status).toBe(0);
    const experiment = await exported(store, 'harbor-');
    // node-sum__Ef5 has reward 0 (its main score) and correctness 0.5: still a fail.
    expect(
      experiment.records.find((r) => r.task_id === 'harnesseval/node-sum' && r.outcome !== 'error')?.outcome,
    ).toBe('fail');
    expect(
      experiment.records.find((r) => r.criteria.some((c) => c.id === 'correctness'))?.criteria[1]?.status,
    ).toBe('passed');
  });
});

describe('runs import --from inspect (built CLI)', () => {
  const LOGS = 'test/fixtures/import/inspect';

  it('reads the .eval zip and the JSON form into the same experiment; a sandbox error is infra', async () => {
    const store = storeFile();
    const zip = await cli([
      'runs',
      '--store',
      store,
      'import',
      '--from',
      'inspect',
      `${LOGS}/word_tasks.eval`,
    ]);
    expect(zip.status, zip.stderr).toBe(0);
    expect(zip.stdout).toContain('4 records, 2 pass, 1 fail, 1 error (1 infra)');
    expect(zip.stdout).toContain('4 x samples[].events: the transcript events are not mapped');
    const fromZip = await exported(store, 'inspect-');
    const json = await cli([
      'runs',
      '--store',
      store,
      'import',
      '--from',
      'inspect',
      `${LOGS}/word_tasks.json`,
      '--replace',
    ]);
    expect(json.status, json.stderr).toBe(0);
    const fromJson = await exported(store, 'inspect-');
    expect(fromJson.records.map((r) => [r.task_id, r.epoch, r.outcome])).toEqual(
      fromZip.records.map((r) => [r.task_id, r.epoch, r.outcome]),
    );
    const first = fromJson.records.find((r) => r.task_id === 'count-1' && r.epoch === 0)!;
    expect(first).toMatchObject({ outcome: 'pass', cost_usd: 0.004, scores: { overall: 1 } });
    // Anthropic-style usage (total = input + output + cache reads): ours counts every input token.
    expect(first.output.usage).toMatchObject({ tokens_in: 1800, tokens_out: 50, cached_tokens: 800 });
    expect(first.output.tool_calls).toMatchObject([{ tool_name: 'bash', id: 'tc-1', result: '3 in.txt' }]);
    // No price reported stays unknown.
    expect(fromJson.records.find((r) => r.task_id === 'count-1' && r.epoch === 1)?.cost_usd).toBeNull();
    expect(fromJson.records.find((r) => r.task_id === 'count-2' && r.epoch === 1)).toMatchObject({
      outcome: 'error',
      error_kind: 'infra',
    });
  });

  it('a sample with no model usage has unknown tokens, not 0, and is left out of the token metrics', async () => {
    const log = JSON.parse(await readFile(join(ROOT, LOGS, 'word_tasks.json'), 'utf8')) as {
      samples: { id: string; epoch: number; model_usage?: unknown }[];
    };
    const bare = log.samples.find((s) => s.id === 'count-1' && s.epoch === 2)!;
    delete bare.model_usage;
    const file = join(root, 'no-usage.json');
    await writeFile(file, JSON.stringify(log));
    const store = storeFile();
    const result = await cli(['runs', '--store', store, 'import', '--from', 'inspect', file]);
    expect(result.status, result.stderr).toBe(0);
    const experiment = await exported(store, 'inspect-');
    const record = experiment.records.find((r) => r.task_id === 'count-1' && r.epoch === 1)!;
    expect(record.output.usage).toMatchObject({ tokens_in: 0, tokens_out: 0, tokens_unknown: true });
    expect(record.cost_usd).toBeNull();
    const others = experiment.records.filter((r) => r !== record);
    expect(others.every((r) => r.output.usage.tokens_unknown === undefined)).toBe(true);
    const tokensIn = experiment.metrics.find((m) => m.name === 'tokens_in')!;
    expect(tokensIn.details).toMatchObject({ unknown_tokens: 1 });
  });

  it('a malformed JSON log is a located error', async () => {
    const store = storeFile();
    const result = await cli([
      'runs',
      '--store',
      store,
      'import',
      '--from',
      'inspect',
      `${LOGS}/malformed.json`,
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${LOGS}/malformed.json:125:16: samples[1].epoch: wrong type string (expected number)`,
    );
    expect(existsSync(store)).toBe(false);
  });
});

describe('compare: an imported Inspect log against a HarnessEval run of the same tasks', () => {
  it('pairs the samples with the native tasks of the same ids, infra errors left out', async () => {
    // A native benchmark with the Inspect log's two sample ids, answered right every time.
    const dir = await mkdtemp(join(root, 'native-'));
    await writeFile(join(dir, 'agent.mjs'), 'export const answer = () => "3";\n');
    await writeFile(
      join(dir, 'word-tasks.yaml'),
      [
        'version: "1.0"',
        'name: word-tasks',
        'agent: { adapter: function, module: ./agent.mjs#answer }',
        'evaluators:',
        '  - name: regex',
        '    options: { pattern: "^3$" }',
        'tests:',
        '  - { id: count-1, input: Count the words in sample count-1. }',
        '  - { id: count-2, input: Count the words in sample count-2. }',
        '',
      ].join('\n'),
    );
    const store = storeFile();
    const native = await cli(
      ['run', 'word-tasks.yaml', '--epochs', '2', '--no-progress', '--store', store],
      dir,
    );
    expect(native.status, native.stderr).toBe(0);
    const nativeId = /stored experiment (\S+)/.exec(native.stdout + native.stderr)?.[1];
    expect(nativeId).toBeDefined();
    const imported = await cli([
      'runs',
      '--store',
      store,
      'import',
      '--from',
      'inspect',
      `${INSPECT_LOGS}/word_tasks.eval`,
      '--suite',
      'word-tasks',
    ]);
    expect(imported.status, imported.stderr).toBe(0);
    const result = await cli(['compare', nativeId!, 'inspect-', '--store', store, '--format', 'json']);
    expect(result.status, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout) as {
      metrics: {
        name: string;
        values: { value: number | null }[];
        deltas: { paired: { n: number } | null }[];
      }[];
      pairs: { shared_tasks: number }[];
      warnings: string[];
    };
    expect(comparison.pairs[0]?.shared_tasks).toBe(2);
    const rate = comparison.metrics.find((m) => m.name === 'success_rate')!;
    expect(rate.values[0]?.value).toBe(1);
    // count-1: 1 of 2; count-2: 1 of 1 (its second epoch is an infra error, left out of rates).
    expect(rate.values[1]?.value).toBe(0.75);
    expect(rate.deltas[0]?.paired?.n).toBe(2);
    expect(comparison.warnings.join('\n')).not.toContain('ran suite');
  }, 120_000);
});

const bwrap = await sandboxAvailability('bwrap');
if (!bwrap.ok) console.warn(`imported-vs-native compare skipped: ${bwrap.reason}`);

describe.skipIf(!bwrap.ok)(
  'compare: an imported Harbor job against a HarnessEval run of the same tasks',
  () => {
    it('pairs the tasks both ran', async () => {
      const store = storeFile();
      const native = await cli(
        ['run', 'suites/harbor-examples', '--harness', 'oracle', '--no-progress', '--store', store],
        ROOT,
      );
      expect(native.status, native.stderr).toBe(0);
      const nativeId = /stored experiment (\S+)/.exec(native.stdout + native.stderr)?.[1];
      expect(nativeId).toBeDefined();
      expect((await importHarbor(store)).status).toBe(0);
      const result = await cli(['compare', nativeId!, 'harbor-', '--store', store, '--format', 'json']);
      expect(result.status, result.stderr).toBe(0);
      const comparison = JSON.parse(result.stdout) as {
        metrics: {
          name: string;
          values: { value: number | null }[];
          deltas: { paired: { n: number } | null }[];
        }[];
        pairs: { shared_tasks: number }[];
        warnings: string[];
      };
      expect(comparison.pairs[0]?.shared_tasks).toBe(4);
      const rate = comparison.metrics.find((m) => m.name === 'success_rate')!;
      expect(rate.values[0]?.value).toBe(1);
      expect(rate.values[1]?.value).toBe(0.5);
      // Paired over the four tasks both ran (per-task means 1, 0, 0.5, 0.5 against the oracle's 1s).
      expect(rate.deltas[0]?.paired?.n).toBe(4);
      expect(comparison.warnings.join('\n')).not.toContain('ran suite');
    }, 120_000);
  },
);
