import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { openStore } from '../../src/store/index.ts';
import { openSqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { FIXTURE_API_KEY } from '../fixtures/import/promptfoo/evals.mjs';
import { writePromptfooDatabase } from '../fixtures/import/promptfoo/make-db.mjs';
import { cli } from '../helpers/run-cli.ts';

// `runs import --from promptfoo` through the built CLI (`npx tsdown` first), on a results JSON and a
// promptfoo.db built with promptfoo's migrations (test/fixtures/import/promptfoo, see the README).
const DIR = 'test/fixtures/import/promptfoo';
const JSON_FILE = `${DIR}/results.json`;
// The store redacts secret environment values; the fixture's rate-limit error quotes the key.
const ENV = { OPENAI_API_KEY: FIXTURE_API_KEY };

let root = '';
let database = '';
let count = 0;
const storeFile = () => {
  count += 1;
  return join(root, `store-${count}.db`);
};

const importPromptfoo = (store: string, path: string, ...extra: string[]) =>
  cli(['runs', '--store', store, 'import', '--from', 'promptfoo', path, ...extra], undefined, ENV);

/** What the CLI stored, read back in-process (fewer subprocesses: the import is what is under test). */
async function exportAll(store: string): Promise<Experiment[]> {
  const opened = await openStore(store, { readonly: true });
  try {
    const ids = (await opened.listExperiments()).map((e) => e.id).sort();
    const experiments: Experiment[] = [];
    for (const id of ids) experiments.push((await opened.getExperiment(id))!);
    return experiments;
  } finally {
    await opened.close();
  }
}

const byProvider = (experiments: Experiment[], provider: string, evalId: string) =>
  experiments.find(
    (e) =>
      (e.metadata['promptfoo'] as { eval_id: string }).eval_id === evalId &&
      e.harness.metadata['provider_id'] === provider,
  )!;

const OPENAI = 'openai:chat:gpt-4.1-mini';
const HAIKU = 'anthropic:messages:claude-haiku-4-5';
const EVAL_A = 'eval-9Qd-2026-11-30T10:00:00';
const EVAL_B = 'eval-7Rk-2026-12-01T09:00:00';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'he-promptfoo-'));
  database = join(root, 'promptfoo.db');
  const db = openSqliteDatabase(database);
  writePromptfooDatabase(db);
  db.close();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('runs import --from promptfoo (built CLI)', () => {
  it('a results JSON: one experiment per prompt x provider, tests as tasks, repeats as epochs', async () => {
    const store = storeFile();
    const result = await importPromptfoo(store, JSON_FILE);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Imported promptfoo-capitals-openai-chat-gpt-4.1-mini-[0-9a-f]{8} .*suite promptfoo-capitals: 6 records, 4 pass, 1 fail, 1 error \(1 infra\)/,
    );
    expect(result.stdout).toMatch(
      /Imported promptfoo-capitals-haiku-[0-9a-f]{8} .*6 records, 4 pass, 1 fail, 1 error \(1 agent\)/,
    );
    expect(result.stdout).toContain('1 x config: only description and tags are read');

    const experiments = await exportAll(store);
    expect(experiments).toHaveLength(2);
    const openai = byProvider(experiments, OPENAI, EVAL_A);
    expect(openai.harness).toMatchObject({ name: OPENAI, model: OPENAI, adapter: 'promptfoo' });
    expect(openai.harness.version).toMatch(/^prompt-[0-9a-f]{8}$/);
    expect(openai.settings.epochs).toBe(2);
    // The description is the task id; a test without one is named by its vars.
    expect(openai.records.map((r) => [r.task_id, r.epoch, r.outcome])).toEqual([
      ['capital of France', 0, 'pass'],
      ['capital of France', 1, 'pass'],
      ['capital of Japan', 0, 'fail'],
      ['capital of Japan', 1, 'pass'],
      [expect.stringMatching(/^country=Peru#[0-9a-f]{8}$/), 0, 'pass'],
      [expect.stringMatching(/^country=Peru#[0-9a-f]{8}$/), 1, 'error'],
    ]);
    // Each assertion is an evaluation; `not-contains` is a negated `contains`.
    const japan = openai.records[2]!;
    expect(japan.evaluations.map((e) => [e.evaluator, e.negated, e.passed])).toEqual([
      ['icontains', false, false],
      ['contains', true, false],
    ]);
    expect(japan.scores).toEqual({ overall: 0 });
    expect(openai.records[0]!.output.usage).toMatchObject({
      tokens_in: 14,
      tokens_out: 6,
      cost_usd: 0.00002,
    });
    expect(openai.records[0]!.output.latency).toBe(0.4);
    // A 429 from the provider is an infra error: left out of the rates.
    const limited = openai.records[5]!;
    expect(limited).toMatchObject({ outcome: 'error', error_kind: 'infra' });
    const rate = openai.metrics.find((m) => m.name === 'success_rate')!;
    expect(rate.value).toBeCloseTo((1 + 0.5 + 1) / 3, 10);
    expect(rate.details).toMatchObject({ infra_errors: 1 });

    // No tokens and a cost of 0 (promptfoo's "no price") are unknown, never 0.
    const haiku = byProvider(experiments, HAIKU, EVAL_A);
    expect(haiku.harness.name).toBe('haiku');
    expect(haiku.records[0]).toMatchObject({ cost_usd: null, output: { usage: { tokens_unknown: true } } });
    expect(haiku.metrics.find((m) => m.name === 'tokens_in')?.value).toBeNull();
    expect(haiku.metrics.find((m) => m.name === 'cost')?.details).toMatchObject({ unknown_cost: 6 });
    // A transform that threw is the prompt's own error.
    expect(haiku.records[5]).toMatchObject({ outcome: 'error', error_kind: 'agent' });
  });

  it('never stores an API key: provider configs are dropped and secret values redacted', async () => {
    const store = storeFile();
    const jsonStore = storeFile();
    expect((await importPromptfoo(store, database)).status).toBe(0);
    expect((await importPromptfoo(jsonStore, JSON_FILE)).status).toBe(0);
    const text = JSON.stringify([...(await exportAll(store)), ...(await exportAll(jsonStore))]);
    expect(text).not.toContain(FIXTURE_API_KEY);
    // The llm-rubric grader's provider keeps its id, not its config.
    expect(text).toContain('"provider":{"id":"openai:gpt-4.1"}');
    // The key quoted in an error message is the store's redaction at work.
    expect(text).toContain('[REDACTED:OPENAI_API_KEY]');
  });

  it('a promptfoo.db: every eval, paired by test in compare', async () => {
    const store = storeFile();
    const result = await importPromptfoo(store, database);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.match(/^Imported /gm)).toHaveLength(3);
    const experiments = await exportAll(store);
    const a = byProvider(experiments, OPENAI, EVAL_A);
    const b = byProvider(experiments, OPENAI, EVAL_B);
    // Row times come from eval_results.created_at (SQLite's CURRENT_TIMESTAMP text, UTC).
    expect(a.records[0]!.timestamp).toBe('2026-11-30T10:00:01.000Z');
    expect(b.records.every((r) => r.outcome === 'pass')).toBe(true);
    // The database and the JSON export of the same eval import to the same experiment.
    const fromJson = storeFile();
    expect((await importPromptfoo(fromJson, JSON_FILE)).status).toBe(0);
    const jsonA = byProvider(await exportAll(fromJson), OPENAI, EVAL_A);
    expect(jsonA.id).toBe(a.id);
    expect(jsonA.records.map((r) => [r.task_id, r.epoch, r.outcome, r.error_kind])).toEqual(
      a.records.map((r) => [r.task_id, r.epoch, r.outcome, r.error_kind]),
    );

    const compared = await cli(['compare', a.id, b.id, '--store', store, '--format', 'json']);
    expect(compared.status, compared.stderr).toBe(0);
    const comparison = JSON.parse(compared.stdout) as {
      metrics: { name: string; deltas: { paired: { n: number; p_value: number | null } | null }[] }[];
      pairs: { shared_tasks: number }[];
      warnings: string[];
    };
    expect(comparison.pairs[0]?.shared_tasks).toBe(3);
    const rate = comparison.metrics.find((m) => m.name === 'success_rate')!;
    expect(rate.deltas[0]?.paired?.n).toBe(3);
    expect(typeof rate.deltas[0]?.paired?.p_value).toBe('number');
    expect(comparison.warnings.join('\n')).not.toContain('ran suite');
  });

  it('re-importing is refused unless --replace, which leaves one copy of each', async () => {
    const store = storeFile();
    expect((await importPromptfoo(store, database)).status).toBe(0);
    const before = await exportAll(store);
    const again = await importPromptfoo(store, database);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists .*pass --replace to overwrite it/);
    const replaced = await importPromptfoo(store, database, '--replace');
    expect(replaced.status, replaced.stderr).toBe(0);
    const after = await exportAll(store);
    expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
    expect(after.map((e) => e.records.map((r) => [r.run_id, r.outcome]))).toEqual(
      before.map((e) => e.records.map((r) => [r.run_id, r.outcome])),
    );
  });

  it('a malformed results JSON is a located error, exit 1, and no store is created', async () => {
    const store = storeFile();
    const result = await importPromptfoo(store, `${DIR}/malformed.json`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${DIR}/malformed.json:167:20: results.results[1].success: wrong type string (expected boolean)`,
    );
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(store)).toBe(false);
  });

  it('an unknown results version or database schema is refused, located', async () => {
    const store = storeFile();
    const json = await importPromptfoo(store, `${DIR}/unknown-version.json`);
    expect(json.status).toBe(1);
    expect(json.stderr).toContain(
      `${DIR}/unknown-version.json:4:16: results.version: unknown promptfoo results version 4: this importer reads versions 2 and 3`,
    );
    // A database from before migration 0011 (no failure_reason) is not guessed at.
    const old = join(root, 'old-promptfoo.db');
    const db = openSqliteDatabase(old);
    writePromptfooDatabase(db, { upTo: '0009_strong_marten_broadcloak' });
    db.close();
    const result = await importPromptfoo(store, old);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${old}: eval_results: unknown schema version: no column failure_reason`);
    expect(existsSync(store)).toBe(false);
  });
});
