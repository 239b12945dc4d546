import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { cli, ROOT, type RunningCli, startCli } from '../helpers/run-cli.ts';

// The built CLI against a real PostgreSQL: a `harnesseval worker` loads each queued suite's
// `plugins:` into that experiment's own plugin set. Two experiments whose files load different
// modules defining the same evaluator name run on one worker, each judged by its own module.
// Before, the worker never loaded a suite's plugins (every job failed on the unknown name).
const FIXTURES = join(ROOT, 'test/fixtures/plugin-sets');
const TEST_TIMEOUT_MS = 180_000;

let dir = '';
let url = '';
const running: RunningCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-queue-plugins-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(() => {
  for (const child of running.splice(0)) if (child.child.exitCode === null) child.child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A benchmark in the checkout whose `grader` comes from the fixture module `kind`-grader.mjs. */
async function suite(kind: 'lenient' | 'strict'): Promise<string> {
  const file = `${kind}.yaml`;
  await writeFile(
    join(dir, file),
    [
      'version: "1.0"',
      `name: queued-${kind}`,
      `plugins: [${JSON.stringify(join(FIXTURES, `${kind}-grader.mjs`))}]`,
      `agent: { adapter: function, module: ${JSON.stringify(`${join(FIXTURES, 'agent.mjs')}#answer`)} }`,
      'evaluators: [{ name: grader }]',
      'tests:',
      '  - { id: q1, input: one }',
      '  - { id: q2, input: two }',
      '',
    ].join('\n'),
  );
  return file;
}

async function queue(file: string): Promise<string> {
  const queued = await cli(['run', file, '--queue', url, '--detach'], dir);
  expect(queued.stderr).toContain('queued 2 trials of experiment');
  expect(queued.status).toBe(0);
  return queued.stdout.trim();
}

async function outcomes(id: string): Promise<{ status: string; outcomes: string[]; explanations: string[] }> {
  const result = await cli(['runs', '--store', url, 'export', id], dir);
  expect(result.status).toBe(0);
  const experiment = JSON.parse(result.stdout) as {
    status: string;
    records: { outcome: string; evaluations: { explanation: string }[] }[];
  };
  return {
    status: experiment.status,
    outcomes: experiment.records.map((r) => r.outcome),
    explanations: experiment.records.map((r) => r.evaluations[0]?.explanation ?? ''),
  };
}

describe('harnesseval worker and plugins:', () => {
  it(
    "runs each queued experiment with its own suite's plugins, the same name meaning different things",
    async () => {
      const lenient = await queue(await suite('lenient'));
      const strict = await queue(await suite('strict'));
      const worker = startCli(['worker', '--queue', url, '-j', '2'], dir);
      running.push(worker);
      for (const id of [lenient, strict]) {
        const watched = await cli(['runs', '--store', url, 'watch', id], dir);
        expect(watched.stdout).toContain(`experiment ${id} completed`);
      }
      expect(await outcomes(lenient)).toEqual({
        status: 'completed',
        outcomes: ['pass', 'pass'],
        explanations: ['lenient', 'lenient'],
      });
      expect(await outcomes(strict)).toEqual({
        status: 'completed',
        outcomes: ['fail', 'fail'],
        explanations: ['strict', 'strict'],
      });
      worker.child.kill('SIGTERM');
      const stopped = await worker.done;
      expect(stopped.stderr).not.toContain('put back');
    },
    TEST_TIMEOUT_MS,
  );
});
