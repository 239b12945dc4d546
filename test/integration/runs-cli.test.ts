import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import { makeExperiment, makeMetric, makeRecord } from '../helpers/experiments.ts';
import { cli } from '../helpers/run-cli.ts';

// Drives the built CLI (`npx tsdown` first; `npm test` does it in pretest).
const DIST = fileURLToPath(new URL('../../dist/cli/cli.cjs', import.meta.url));

let root = '';
let count = 0;
/** A fresh project folder for one test. */
async function project(): Promise<string> {
  count += 1;
  const dir = join(root, `project-${count}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

const first = makeExperiment({
  id: '01JABCDEF0001',
  name: 'baseline',
  created_at: '2026-02-01T10:00:00.000Z',
  settings: { epochs: 1, concurrency: 4, timeout_seconds: 60, retries: 0, filters: {} },
  metrics: [makeMetric('success_rate', 0.667)],
  outcome: 'fail',
  records: [
    makeRecord({ task_id: 'alpha' }),
    makeRecord({ task_id: 'bravo', outcome: 'fail' }),
    makeRecord({ task_id: 'charlie', outcome: 'error', error: 'timed out after 60 s' }),
  ],
});
const second = makeExperiment({
  id: '01JABCXYZ0002',
  created_at: '2026-02-02T10:00:00.000Z',
  harness: {
    name: 'other-harness',
    version: '2.0.0',
    adapter: 'http',
    options: {},
    agents: [],
    metadata: {},
    schema_version: 1,
  },
  suite: { id: 'other-suite', tasks: [{ id: 'alpha', weight: 1 }] },
});

/** A project whose default store holds `first` and `second`. */
async function seededProject(): Promise<string> {
  const dir = await project();
  const store = new SqliteStore(join(dir, '.harnesseval', 'harnesseval.db'), { env: {} });
  await store.createExperiment(first);
  await store.createExperiment(second);
  await store.close();
  return dir;
}

beforeAll(async () => {
  if (!existsSync(DIST))
    throw new Error('dist/cli/cli.cjs is missing: run `npx tsdown` before the CLI tests');
  root = await mkdtemp(join(tmpdir(), 'harnesseval-runs-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('harnesseval runs list', () => {
  it('says there is nothing yet, without creating a store', async () => {
    const dir = await project();
    const result = await cli(['runs', 'list'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('No experiments yet');
    expect(existsSync(join(dir, '.harnesseval'))).toBe(false);
    expect((await cli(['runs', 'list', '--format', 'json'], dir)).stdout.trim()).toBe('[]');
  });

  it('lists newest first as a table or JSON, with filters and a limit', async () => {
    const dir = await seededProject();
    const table = await cli(['runs', 'list'], dir);
    expect(table.status).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+HARNESS\s+SUITE\s+STATUS\s+RECORDS\s+OUTCOME$/);
    expect(lines[1]).toMatch(
      /^01JABCXYZ0002\s+2026-02-02 10:00:00\s+other-harness@2\.0\.0\s+other-suite\s+completed\s+0/,
    );
    expect(lines[2]).toMatch(/^01JABCDEF0001 .*echo-harness@1\.0\.0\s+hello-suite\s+completed\s+3\s+fail$/);
    const json = await cli(['runs', 'list', '--format', 'json', '--harness', 'echo-harness'], dir);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ id: '01JABCDEF0001', records: 3 })]);
    const suite = JSON.parse(
      (await cli(['runs', 'list', '--suite', 'other-suite', '--format', 'json'], dir)).stdout,
    );
    expect(suite.map((s: { id: string }) => s.id)).toEqual(['01JABCXYZ0002']);
    const limited = JSON.parse((await cli(['runs', 'list', '--limit', '1', '--format', 'json'], dir)).stdout);
    expect(limited).toHaveLength(1);
  });

  it('rejects a bad --limit or --format as usage errors (exit 2)', async () => {
    const dir = await project();
    const limit = await cli(['runs', 'list', '--limit', '-1'], dir);
    expect(limit.status).toBe(2);
    expect(limit.stderr).toContain('--limit');
    expect((await cli(['runs', 'list', '--format', 'xml'], dir)).status).toBe(2);
  });

  it('takes --store before or after the subcommand', async () => {
    const dir = await seededProject();
    await rm(join(dir, 'elsewhere'), { recursive: true, force: true });
    const moved = join('.harnesseval', 'harnesseval.db');
    const before = await cli(['runs', '--store', moved, 'list', '--format', 'json'], dir);
    const after = await cli(['runs', 'list', '--store', moved, '--format', 'json'], dir);
    expect(JSON.parse(before.stdout)).toHaveLength(2);
    expect(after.stdout).toBe(before.stdout);
    const other = await cli(['runs', 'list', '--store', 'elsewhere/x.db'], dir);
    expect(other.stdout).toContain('no store at');
  });
});

describe('harnesseval runs show', () => {
  it('summarizes an experiment found by a unique id prefix', async () => {
    const dir = await seededProject();
    const result = await cli(['runs', 'show', '01JABCD'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('01JABCDEF0001 (baseline)');
    expect(result.stdout).toMatch(/Harness\s+echo-harness 1\.0\.0 \(adapter function\)/);
    expect(result.stdout).toMatch(/Status\s+completed, outcome fail/);
    expect(result.stdout).toContain('3 of 3 (3 tasks x 1 epochs): 1 pass, 1 fail, 1 error, 0 pending');
    expect(result.stdout).toMatch(/success_rate\s+0\.667\s+95% CI \[0\.567, 0\.767\]\s+n=3/);
    const json = JSON.parse((await cli(['runs', 'show', '01JABCD', '--format', 'json'], dir)).stdout);
    expect(json).toMatchObject({
      id: '01JABCDEF0001',
      status: 'completed',
      outcomes: { pass: 1, fail: 1, error: 1, pending: 0 },
      metrics: [{ name: 'success_rate', value: 0.667 }],
    });
  });

  it('exits 1 with a clear message for an unknown or ambiguous id', async () => {
    const dir = await seededProject();
    const unknown = await cli(['runs', 'show', 'nope'], dir);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no experiment matches "nope"');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    const ambiguous = await cli(['runs', 'show', '01JABC'], dir);
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toContain('matches several experiments: 01JABCXYZ0002, 01JABCDEF0001');
    const noStore = await cli(['runs', 'show', 'x'], await project());
    expect(noStore.status).toBe(1);
    expect(noStore.stderr).toContain('no store at');
  });

  it('does not pass terminal escape sequences from stored names through', async () => {
    const dir = await project();
    const store = new SqliteStore(join(dir, '.harnesseval', 'harnesseval.db'), { env: {} });
    await store.createExperiment(makeExperiment({ id: 'esc', name: 'evil\u001b]0;pwned\u0007' }));
    await store.close();
    const result = await cli(['runs', 'show', 'esc'], dir);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('evil?]0;pwned?');
  });
});

describe('harnesseval runs export, import and delete', () => {
  it('exports, imports into another store and exports the same bytes again', async () => {
    const dir = await seededProject();
    const exported = await cli(['runs', 'export', '01JABCD', '-o', 'out/run.json'], dir);
    expect(exported.status).toBe(0);
    expect(exported.stderr).toContain('Exported 01JABCDEF0001 (3 records) to out/run.json');
    const text = await readFile(join(dir, 'out', 'run.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(first);
    const imported = await cli(['runs', '--store', 'copy.db', 'import', 'out/run.json'], dir);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('Imported 01JABCDEF0001 (3 records)');
    const again = await cli(['runs', '--store', 'copy.db', 'export', '01JABCDEF0001'], dir);
    expect(again.stdout).toBe(text);
  });

  it('refuses to import over an existing id without --replace', async () => {
    const dir = await seededProject();
    await writeFile(join(dir, 'changed.json'), JSON.stringify({ ...first, name: 'changed' }));
    const refused = await cli(['runs', 'import', 'changed.json'], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(refused.stderr).toContain('--replace');
    expect((await cli(['runs', 'import', 'changed.json', '--replace'], dir)).status).toBe(0);
    expect(JSON.parse((await cli(['runs', 'show', '01JABCD', '--format', 'json'], dir)).stdout).name).toBe(
      'changed',
    );
  });

  it('reports located errors for a file that is not an experiment, and a missing file', async () => {
    const dir = await project();
    const bad = JSON.stringify({ ...first, records: [{ ...first.records[0], outcome: 'maybe' }] }, null, 2);
    await writeFile(join(dir, 'bad.json'), bad);
    const result = await cli(['runs', 'import', 'bad.json'], dir);
    expect(result.status).toBe(1);
    const line = bad.split('\n').findIndex((l) => l.includes('"maybe"')) + 1;
    expect(result.stderr).toMatch(new RegExp(`bad\\.json:${line}:\\d+: records\\[0\\]\\.outcome: `));
    const missing = await cli(['runs', 'import', 'missing.json'], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no such file: missing.json');
    expect(existsSync(join(dir, '.harnesseval'))).toBe(false);
  });

  it('deletes an experiment by prefix; a second delete exits 1', async () => {
    const dir = await seededProject();
    const deleted = await cli(['runs', 'delete', '01JABCX'], dir);
    expect(deleted.status).toBe(0);
    expect(deleted.stdout).toContain('Deleted 01JABCXYZ0002 (0 records)');
    expect((await cli(['runs', 'delete', '01JABCXYZ0002'], dir)).status).toBe(1);
    const list = JSON.parse((await cli(['runs', 'list', '--format', 'json'], dir)).stdout);
    expect(list.map((s: { id: string }) => s.id)).toEqual(['01JABCDEF0001']);
  });

  it('keeps secret environment values out of the store and the export', async () => {
    const dir = await project();
    const secret = 'xoxb-very-secret-token-value';
    await writeFile(join(dir, 'leaky.json'), JSON.stringify(makeExperiment({ metadata: { auth: secret } })));
    const env = { SLACK_BOT_TOKEN: secret };
    expect((await cli(['runs', 'import', 'leaky.json'], dir, env)).status).toBe(0);
    const db = await readFile(join(dir, '.harnesseval', 'harnesseval.db'));
    expect(db.includes(secret)).toBe(false);
    const exported = await cli(['runs', 'export', 'exp-0001'], dir);
    expect(exported.stdout).toContain('[REDACTED:SLACK_BOT_TOKEN]');
    expect(exported.stdout).not.toContain(secret);
  });
});
