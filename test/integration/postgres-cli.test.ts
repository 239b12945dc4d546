import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOutput } from '../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { openStore } from '../../src/store/index.ts';
import { experimentToJson } from '../../src/store/json-io.ts';
import { makeExperiment, makeMetric, makeRecord } from '../helpers/experiments.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { type CliResult, cli, ROOT } from '../helpers/run-cli.ts';

// The built CLI (`npx tsdown` first) against a real PostgreSQL (test/helpers/postgres.ts).
const BASIC = join(ROOT, 'test/fixtures/run/basic.yaml');
const PASSWORD = 'pw-for-evals-7f3a9c';
/** Each test starts several CLI processes (~1 s each on the dev VM, several under load). */
const CLI_TEST_TIMEOUT_MS = 180_000;

let root = '';
let url = '';
/** Everything the CLI printed in this file: the password must be in none of it. */
const printed: string[] = [];

async function he(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const result = await cli(args, cwd, env);
  printed.push(result.stdout, result.stderr);
  return result;
}

let dirs = 0;
async function project(): Promise<string> {
  dirs += 1;
  const dir = join(root, `project-${dirs}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-pg-cli-'));
  const admin = new URL(await createTestDatabase());
  const database = admin.pathname.slice(1);
  // A role with a password, as a team's server would have, that owns nothing but may create the schema.
  await adminQuery(`CREATE ROLE evals LOGIN PASSWORD '${PASSWORD}'`);
  await adminQuery(`GRANT CREATE ON DATABASE ${database} TO evals`);
  admin.username = 'evals';
  admin.password = PASSWORD;
  url = admin.href;
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  expect(printed.join('\n')).not.toContain(PASSWORD);
});

const storedId = (result: CliResult) => /stored experiment (\S+) in (\S+)/.exec(result.stderr);

describe('--store postgres://… and HARNESSEVAL_STORE', () => {
  it(
    'run, runs, report, compare, timeline and power all use the server; no SQLite file appears',
    async () => {
      const dir = await project();
      const first = await he(['run', BASIC, '--store', url], dir);
      expect(first.stderr).not.toMatch(/\n\s+at /);
      expect(first.status).toBe(0);
      const stored = storedId(first);
      expect(stored?.[2]).toBe(url.replace(`:${PASSWORD}@`, ':***@'));
      const env = { HARNESSEVAL_STORE: url };
      const second = await he(['run', BASIC, '--name', 'second'], dir, env);
      expect(second.status).toBe(0);
      const [a, b] = [stored?.[1] ?? '', storedId(second)?.[1] ?? ''];
      expect(existsSync(join(dir, '.harnesseval'))).toBe(false);

      const list = await he(['runs', 'list', '--format', 'json'], dir, env);
      expect(JSON.parse(list.stdout).map((s: { id: string }) => s.id)).toEqual([b, a]);
      expect((await he(['runs', '--store', url, 'show', a.slice(0, -2)], dir)).stdout).toContain(a);
      const report = await he(['report', a, '--format', 'markdown'], dir, env);
      expect(report.status).toBe(0);
      expect(report.stdout).toContain('farewell-dee');
      const compare = await he(['compare', a, b, '--format', 'json'], dir, env);
      expect(compare.status).toBe(0);
      expect(JSON.parse(compare.stdout).experiments.map((e: { id: string }) => e.id)).toEqual([a, b]);
      const timeline = await he(['timeline', '--format', 'json'], dir, env);
      expect(timeline.status).toBe(0);
      // Both runs are one harness version: one point, showing the latest run.
      const points = JSON.parse(timeline.stdout).points as { experiment_id: string }[];
      expect(points.map((p) => p.experiment_id)).toEqual([b]);
      const power = await he(['power', '--baseline', a, '--effect', '0.2'], dir, env);
      expect(power.stderr).toBe('');
      expect(power.status).toBe(0);
      expect((await he(['runs', 'delete', b], dir, env)).stdout).toContain(`Deleted ${b} (4 records) from`);
      expect(JSON.parse((await he(['runs', 'list', '--format', 'json'], dir, env)).stdout)).toHaveLength(1);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'grade reads the pending criteria from the server and stores the grades there',
    async () => {
      const schemaUrl = new URL(url);
      schemaUrl.searchParams.set('schema', 'grading');
      const store = await openStore(schemaUrl.href);
      const experiment = await runExperiment({
        suite: await loadSuite(join(ROOT, 'test/fixtures/grade/suite.yaml')),
        harness: HarnessConfigSchema.parse({ name: 'noop', version: '1', adapter: 'in-process' }),
        agent: { specificationVersion: 'v1', name: 'noop', run: async () => agentOutput({ output: 'kept' }) },
        store,
      });
      await store.close();
      expect(experiment.outcome).toBe('pending');
      const { spawnSync } = await import('node:child_process');
      const graded = spawnSync(
        process.execPath,
        [join(ROOT, 'bin/harnesseval.js'), 'grade', experiment.id, '--grader', 'Ann'],
        {
          input: '4\n3\n',
          encoding: 'utf8',
          cwd: await project(),
          env: { ...process.env, HARNESSEVAL_STORE: schemaUrl.href },
        },
      );
      printed.push(graded.stdout, graded.stderr);
      expect(graded.stderr).toBe('');
      expect(graded.stdout).toContain('graded 1 criteria as Ann; 0 still pending');
      const after = await openStore(schemaUrl.href, { mustExist: true });
      const record = (await after.getExperiment(experiment.id))?.records[0];
      await after.close();
      expect(record?.criteria.flatMap((c) => c.grades.map((g) => [g.dimension, g.level]))).toEqual([
        ['code_quality', 4],
        ['convention_adherence', 3],
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'says "no experiments yet" for a database without a store, and creates nothing',
    async () => {
      const empty = new URL(await createTestDatabase());
      const list = await he(['runs', 'list'], await project(), { HARNESSEVAL_STORE: empty.href });
      expect(list.status).toBe(0);
      expect(list.stdout).toContain(`No experiments yet (no store at ${empty.href}`);
      const { rows } = await adminQuery(
        "SELECT to_regnamespace('harnesseval') AS s",
        empty.pathname.slice(1),
      );
      expect((rows[0] as { s: unknown }).s).toBeNull();
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('connection errors', () => {
  it(
    'are one located line and an exit status, never a stack trace or the password',
    async () => {
      const down = new URL(url);
      down.port = String(await freePort());
      const dir = await project();
      for (const args of [
        ['run', BASIC, '--store', down.href],
        ['compare', 'a', 'b', '--store', down.href],
        ['runs', '--store', down.href, 'list'],
      ]) {
        const result = await he(args, dir);
        expect(result.status, args.join(' ')).toBe(1);
        expect(result.stderr).toBe(
          `harnesseval: cannot connect to postgres://evals:***@127.0.0.1:${down.port}/${down.pathname.slice(1)}: connection refused (is PostgreSQL running there?)\n`,
        );
      }
      const wrong = new URL(url);
      wrong.password = 'not-the-password-1234';
      const refused = await he(['runs', 'list'], dir, { HARNESSEVAL_STORE: wrong.href });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        /^harnesseval: cannot connect to postgres:\/\/evals:\*\*\*@.*password authentication failed for user "evals"\n$/,
      );
      expect(refused.stderr).not.toContain('not-the-password-1234');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('runs export / runs import between SQLite and PostgreSQL', () => {
  it(
    'round-trips SQLite -> JSON -> PostgreSQL -> JSON -> SQLite byte for byte',
    async () => {
      const dir = await project();
      const base = makeExperiment({
        id: 'exp-roundtrip',
        metrics: [makeMetric('success_rate', 0.5)],
        scores: { overall: 0.75 },
        // Key order, unicode, control characters and a lone surrogate all survive as text.
        metadata: {
          zeta: 1,
          alpha: { nested: [1, 2.5, null, true] },
          text: 'héllo ✓ 🚀 "q" \\ \u0000 \ud800',
        },
      });
      // In the order every store gives records back: suite order, then epoch.
      const records = [
        makeRecord({ task_id: 'alpha', outcome: 'error', error: 'timed out' }),
        makeRecord({ task_id: 'alpha', epoch: 1, outcome: 'fail', cost_usd: 0.000123 }),
        makeRecord({ task_id: 'bravo', output: { output: 'line\nbreak\ttab', latency: 0.1 } }),
      ];
      const original = join(dir, 'original.json');
      await writeFile(original, experimentToJson({ ...base, records }, { env: {} }));
      const sqliteA = join(dir, 'a.db');
      const sqliteB = join(dir, 'b.db');
      const step = async (args: string[]) => {
        const result = await he(args, dir);
        expect(result.stderr, args.join(' ')).not.toMatch(/error|\n\s+at /i);
        expect(result.status, args.join(' ')).toBe(0);
      };
      await step(['runs', '--store', sqliteA, 'import', 'original.json']);
      await step(['runs', '--store', sqliteA, 'export', 'exp-roundtrip', '-o', 'from-sqlite.json']);
      await step(['runs', '--store', url, 'import', 'from-sqlite.json']);
      await step(['runs', '--store', url, 'export', 'exp-roundtrip', '-o', 'from-postgres.json']);
      await step(['runs', '--store', sqliteB, 'import', 'from-postgres.json']);
      await step(['runs', '--store', sqliteB, 'export', 'exp-roundtrip', '-o', 'back-in-sqlite.json']);
      const [start, fromSqlite, fromPostgres, back] = await Promise.all(
        ['original.json', 'from-sqlite.json', 'from-postgres.json', 'back-in-sqlite.json'].map((f) =>
          readFile(join(dir, f), 'utf8'),
        ),
      );
      expect(fromSqlite).toBe(start);
      expect(fromPostgres).toBe(start);
      expect(back).toBe(start);
      expect(JSON.parse(start ?? '').metadata.text).toBe('héllo ✓ 🚀 "q" \\ \u0000 \ud800');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('a damaged stored record', () => {
  it(
    'is refused by compare when it is in what compare reads, and by a whole read however deep the damage',
    async () => {
      const dir = await project();
      const schemaUrl = new URL(url);
      schemaUrl.searchParams.set('schema', 'damaged');
      const store = await openStore(schemaUrl.href);
      for (const id of ['exp-damage-a', 'exp-damage-b'])
        await store.createExperiment(
          makeExperiment({
            id,
            records: ['alpha', 'bravo', 'charlie'].map((task_id) =>
              makeRecord({ task_id, trace: { agent_calls: [{ role: 'planner', tokens_in: 3 }] } }),
            ),
          }),
        );
      await store.close();
      const compare = () =>
        he(['compare', 'exp-damage-a', 'exp-damage-b', '--store', schemaUrl.href, '--format', 'json'], dir);
      const intact = await compare();
      expect(intact.stderr).toBe('');
      expect(intact.status).toBe(0);
      const sql = (text: string) => adminQuery(text, new URL(url).pathname.slice(1));
      // Deep inside the trace, which compare does not read (its trial records leave traces out):
      // compare and `runs show` (trial records too) give the same answer, a whole read of the
      // experiment (`runs export`) refuses it.
      await sql(
        `UPDATE damaged.records SET document = jsonb_set(document::jsonb, '{trace,agent_calls,0,tokens_in}', '"many"')::text
         WHERE experiment_id = 'exp-damage-b' AND task_id = 'bravo'`,
      );
      expect(await compare()).toMatchObject({ status: 0, stdout: intact.stdout });
      expect(await he(['runs', 'show', 'exp-damage-b', '--store', schemaUrl.href], dir)).toMatchObject({
        status: 0,
        stderr: '',
      });
      const shown = await he(
        ['runs', 'export', 'exp-damage-b', '--store', schemaUrl.href, '-o', join(dir, 'b.json')],
        dir,
      );
      expect(shown.status).not.toBe(0);
      expect(shown.stderr).toContain(
        'stored run bravo#0 of experiment exp-damage-b is corrupt: trace.agent_calls[0].tokens_in:',
      );
      expect(shown.stderr).not.toMatch(/\n\s+at /);
      // A field compare reads, damaged in the summary and the document alike: refused, named.
      await sql(
        `UPDATE damaged.records SET summary = jsonb_set(summary::jsonb, '{output,latency}', '"slow"')::text,
           document = jsonb_set(document::jsonb, '{output,latency}', '"slow"')::text
         WHERE experiment_id = 'exp-damage-b' AND task_id = 'charlie'`,
      );
      const damaged = await compare();
      expect(damaged.status).not.toBe(0);
      expect(damaged.stdout).toBe('');
      expect(damaged.stderr).toContain(
        'stored run charlie#0 of experiment exp-damage-b is corrupt: output.latency:',
      );
      expect(damaged.stderr).not.toMatch(/\n\s+at /);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('start-up cost', () => {
  it(
    'loads the pg driver only for a PostgreSQL store',
    async () => {
      const dir = await project();
      const hook = join(dir, 'trace-pg.cjs');
      const log = join(dir, 'loaded.txt');
      await writeFile(
        hook,
        `const Module = require('node:module');
const fs = require('node:fs');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'pg') fs.appendFileSync(${JSON.stringify(log)}, 'pg\\n');
  return load.call(this, request, ...rest);
};\n`,
      );
      const env = { NODE_OPTIONS: `--require ${hook}` };
      expect((await he(['runs', '--store', join(dir, 'x.db'), 'list'], dir, env)).status).toBe(0);
      expect(existsSync(log)).toBe(false);
      expect((await he(['runs', '--store', url, 'list'], dir, env)).status).toBe(0);
      expect(await readFile(log, 'utf8')).toContain('pg');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
