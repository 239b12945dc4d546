import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.ts';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { startOpenAICompatibleServer } from '../helpers/openai-compatible-server.ts';
import { BIN, cli, ROOT, startCli } from '../helpers/run-cli.ts';

/**
 * One test per `run` flag, each proving through the built CLI that the flag changes what happens
 * (a flag that is declared but never read fails here). The last test fails when `run` grows a
 * flag that has no test in this file.
 */
const FIX = join(ROOT, 'test/fixtures/run-flags');
const GREET = join(FIX, 'greet.yaml');
const harness = (name: string) => join(FIX, `${name}.yaml`);

const tested = new Set<string>();
/** A test of one flag, registered so the completeness check can see it. */
function flag(name: string, title: string, body: () => Promise<void>, timeout = 30_000) {
  tested.add(name);
  it(`${name}: ${title}`, body, timeout);
}

let root = '';
let count = 0;
async function scratch(): Promise<string> {
  const dir = join(root, `case-${++count}`);
  await mkdir(dir, { recursive: true });
  return dir;
}
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-run-flags-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** `run FILE --no-store --reporter json ARGS`: the experiment printed. */
async function runJson(file: string, args: string[] = [], cwd = ROOT, env: NodeJS.ProcessEnv = {}) {
  const r = await cli(['run', file, '--no-store', '--reporter', 'json', ...args], cwd, env);
  if (r.stdout.trim() === '') throw new Error(`no JSON (exit ${r.status}): ${r.stderr}`);
  return { ...r, experiment: ExperimentSchema.parse(JSON.parse(r.stdout)) };
}
const outputs = (e: Experiment) => e.records.map((r) => r.output.output);
const ids = (e: Experiment) => e.records.map((r) => r.task_id);

describe('harnesseval run: every flag changes behaviour', () => {
  flag('--harness', 'replaces the file’s agent', async () => {
    const own = await runJson(GREET, ['--filter-id', 'greet-ada']);
    const other = await runJson(GREET, ['--filter-id', 'greet-ada', '--harness', harness('shout')]);
    expect(outputs(own.experiment)).toEqual(['Hello, Ada!']);
    expect(outputs(other.experiment)).toEqual(['HELLO, ADA!']);
    expect(other.experiment.harness.name).toBe('shout');
  });

  flag('--concurrency', 'bounds how many trials run at once', async () => {
    const serial = await runJson(GREET, ['--harness', harness('overlap'), '--concurrency', '1']);
    const parallel = await runJson(GREET, ['--harness', harness('overlap'), '-j', '4']);
    expect(outputs(serial.experiment)).toEqual(['1', '1', '1', '1']);
    expect(Math.max(...outputs(parallel.experiment).map(Number))).toBeGreaterThan(1);
  });

  flag('--epochs', 'runs every task that many times', async () => {
    const { experiment } = await runJson(GREET, ['--epochs', '2', '--filter-tag', 'farewell']);
    expect(experiment.records.map((r) => `${r.task_id}#${r.epoch}`)).toEqual([
      'farewell-dee#0',
      'farewell-dee#1',
    ]);
  });

  flag('--timeout', 'ends a trial that runs longer', async () => {
    const args = ['--harness', harness('slow'), '--filter-id', 'greet-ada'];
    const patient = await runJson(GREET, args);
    const hurried = await runJson(GREET, [...args, '--timeout', '0.2']);
    expect(patient.experiment.records[0]?.outcome).toBe('pass');
    expect(hurried.experiment.records[0]).toMatchObject({
      outcome: 'error',
      output: { error_kind: 'timeout' },
    });
  });

  flag('--retries', 'retries a transient error', async () => {
    const args = ['--harness', harness('flaky'), '--filter-id', 'greet-ada'];
    const once = await runJson(GREET, args);
    const retried = await runJson(GREET, [...args, '--retries', '2']);
    expect(once.experiment.records[0]).toMatchObject({ outcome: 'error', attempts: 1 });
    expect(retried.experiment.records[0]).toMatchObject({ outcome: 'pass', attempts: 3 });
  });

  flag('--filter-id', 'runs only the tasks whose id matches', async () => {
    expect(ids((await runJson(GREET, ['--filter-id', 'greet-*'])).experiment)).toEqual([
      'greet-ada',
      'greet-bob',
      'greet-cy',
    ]);
  });

  flag('--filter-tag', 'runs only the tasks with the tag', async () => {
    expect(ids((await runJson(GREET, ['--filter-tag', 'short'])).experiment)).toEqual(['greet-cy']);
  });

  flag('--filter-difficulty', 'runs only the tasks of that difficulty', async () => {
    expect(ids((await runJson(GREET, ['--filter-difficulty', 'easy'])).experiment)).toEqual([
      'greet-ada',
      'farewell-dee',
    ]);
  });

  flag('--resume', 'continues a stored experiment without repeating its trials', async () => {
    const dir = await scratch();
    const calls = join(dir, 'calls.txt');
    const store = join(dir, 'store.db');
    const first = await cli(['run', GREET, '--store', store, '--reporter', 'json'], dir, {
      CALLS_FILE: calls,
    });
    const id = ExperimentSchema.parse(JSON.parse(first.stdout)).id;
    const before = await readFile(calls, 'utf8');
    const resumed = await cli(['run', GREET, '--store', store, '--reporter', 'json', '--resume', id], dir, {
      CALLS_FILE: calls,
    });
    const experiment = ExperimentSchema.parse(JSON.parse(resumed.stdout));
    expect(experiment.id).toBe(id);
    expect(experiment.records).toHaveLength(4);
    expect(await readFile(calls, 'utf8')).toBe(before);
  });

  flag('--retry-errors', 'runs again only the trials that errored outside the harness', async () => {
    const dir = await scratch();
    const store = join(dir, 'store.db');
    const args = ['run', GREET, '--harness', harness('slow'), '--store', store, '--reporter', 'json'];
    const first = ExperimentSchema.parse(
      JSON.parse((await cli([...args, '--filter-tag', 'greeting', '--timeout', '0.2'], dir)).stdout),
    );
    expect(first.records.map((r) => r.error_kind)).toEqual(['timeout', 'timeout', 'timeout']);
    // The stored plan holds, except the timeout and the retries: the retry gives the trials more time.
    const retried = await cli(
      [...args, '--filter-tag', 'greeting', '--timeout', '30', '--retry-errors', first.id],
      dir,
    );
    const experiment = ExperimentSchema.parse(JSON.parse(retried.stdout));
    expect(experiment.id).toBe(first.id);
    expect(experiment.records.map((r) => r.outcome)).toEqual(['pass', 'pass', 'pass']);
  });

  flag('--reporter', 'chooses what goes to standard output', async () => {
    const table = await cli(['run', GREET, '--no-store', '--filter-id', 'greet-ada'], ROOT);
    const json = await cli(['run', GREET, '--no-store', '--filter-id', 'greet-ada', '--reporter', 'json']);
    expect(table.stdout).toMatch(/greet-ada\s+PASS/);
    expect(JSON.parse(json.stdout)).toMatchObject({ records: [{ task_id: 'greet-ada' }] });
  });

  flag('--all', 'shows every row of a run above the console’s 200', async () => {
    const args = ['run', GREET, '--no-store', '--no-progress', '--filter-id', 'greet-ada', '--epochs', '201'];
    const rows = (stdout: string) => stdout.split('\n').filter((l) => /^greet-ada\s+\d+\s+PASS/.test(l));
    expect(rows((await cli(args, ROOT)).stdout)).toHaveLength(0);
    expect(rows((await cli([...args, '--all'], ROOT)).stdout)).toHaveLength(201);
  });

  flag('--output', 'writes a report in the format of the extension', async () => {
    const dir = await scratch();
    const r = await cli(['run', GREET, '--no-store', '-o', join(dir, 'out/report.md')], dir);
    expect(r.status).toBe(1);
    expect(await readFile(join(dir, 'out/report.md'), 'utf8')).toMatch(/^## HarnessEval: run-flags/);
  });

  flag('--store', 'stores the experiment in that file', async () => {
    const dir = await scratch();
    const r = await cli(['run', GREET, '--store', 'elsewhere/he.db'], dir);
    expect(r.stderr).toContain('stored experiment exp-');
    expect(existsSync(join(dir, 'elsewhere/he.db'))).toBe(true);
    expect(existsSync(join(dir, '.harnesseval'))).toBe(false);
  });

  flag('--no-store', 'stores nothing', async () => {
    const dir = await scratch();
    const r = await cli(['run', GREET, '--no-store'], dir);
    expect(r.stderr).not.toContain('stored experiment');
    expect(existsSync(join(dir, '.harnesseval'))).toBe(false);
  });

  const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0;
  if (!strace) console.warn('--durability: strace is not installed, so the fsync count cannot be checked');
  flag('--durability', 'full makes SQLite sync on every commit', async () => {
    if (!strace) return;
    const syncs = async (level: string) => {
      const dir = await scratch();
      const log = join(dir, 'strace.txt');
      const args = ['-f', '-qq', '-e', 'trace=fsync,fdatasync', '-o', log, process.execPath, BIN];
      spawnSync(
        'strace',
        [...args, 'run', GREET, '--store', 's.db', '--durability', level, '--no-progress'],
        {
          cwd: dir,
          env: { PATH: process.env['PATH'], NO_COLOR: '1' },
        },
      );
      return (await readFile(log, 'utf8')).split('\n').filter((l) => /f(data)?sync\(/.test(l)).length;
    };
    const normal = await syncs('normal');
    // One sync per committed trial at least (four trials), on top of what `normal` does.
    expect(await syncs('full')).toBeGreaterThanOrEqual(normal + 4);
  });

  flag('--seed', 'seeds the harness (HARNESSEVAL_SEED)', async () => {
    const args = ['--harness', harness('seed'), '--filter-id', 'greet-ada'];
    expect(outputs((await runJson(GREET, [...args, '--seed', '7'])).experiment)).toEqual(['7']);
    expect(outputs((await runJson(GREET, [...args, '--seed', '40'])).experiment)).toEqual(['40']);
  });

  flag('--no-fail-on-threshold', 'exits 0 although a threshold is violated', async () => {
    const failing = await cli(['run', GREET, '--no-store']);
    const lenient = await cli(['run', GREET, '--no-store', '--no-fail-on-threshold']);
    expect([failing.status, lenient.status]).toEqual([1, 0]);
    expect(lenient.stdout).toContain('success_rate');
  });

  flag('--keep-workspaces', 'keeps each trial’s workspace and names it in the record', async () => {
    const suite = join(ROOT, 'test/fixtures/grade/suite.yaml');
    const gone = await runJson(suite, ['--harness', harness('shout')]);
    const kept = await runJson(suite, ['--harness', harness('shout'), '--keep-workspaces']);
    expect(gone.experiment.records[0]?.workspace).toBeUndefined();
    const workspace = kept.experiment.records[0]?.workspace;
    expect(workspace !== undefined && existsSync(join(workspace, 'index.js'))).toBe(true);
    if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  });

  flag('--name', 'names the experiment', async () => {
    const { experiment } = await runJson(GREET, ['--filter-id', 'greet-ada', '--name', 'my baseline']);
    expect(experiment.name).toBe('my baseline');
  });

  flag('--judge', 'grades rubric criteria with that model', async () => {
    const server = await startOpenAICompatibleServer(() => '{"rationale": "clear", "level": 4}');
    try {
      const suite = join(ROOT, 'test/fixtures/judge-cli/suite.yaml');
      const args = ['--harness', join(ROOT, 'test/fixtures/judge-cli/harness.yaml')];
      const without = await runJson(suite, args);
      const judged = await runJson(suite, [
        ...args,
        '--judge',
        `openai-compatible:judge-x@${server.baseURL}`,
      ]);
      expect(without.experiment.records[0]?.outcome).toBe('pending');
      expect(server.requests.map((r) => r.model)).toEqual(['judge-x']);
      const criterion = judged.experiment.records[0]?.criteria.find((c) => c.id === 'ac-02');
      expect(criterion).toMatchObject({ status: 'passed', grades: [{ level: 4, judge_model: 'judge-x' }] });
      expect(judged.experiment.records[0]?.outcome).toBe('pass');
    } finally {
      await server.close();
    }
  });

  flag('--no-progress', 'silences the progress lines', async () => {
    const shown = await cli(['run', GREET, '--no-store']);
    const silent = await cli(['run', GREET, '--no-store', '--no-progress']);
    expect(shown.stderr).toMatch(/\d+\/4 trials/);
    expect(silent.stderr).not.toMatch(/trials/);
  });

  flag('--sandbox', 'runs the harness in a sandbox that withholds the tests until it finishes', async () => {
    const args = [
      'run',
      'test/fixtures/sandbox/task.yaml',
      '--harness',
      'test/fixtures/sandbox/harness.yaml',
    ];
    const json = ['--no-store', '--no-progress', '--reporter', 'json'];
    const boxed = JSON.parse((await cli([...args, ...json, '--sandbox', 'bwrap'])).stdout) as Experiment;
    const open = JSON.parse((await cli([...args, ...json])).stdout) as Experiment;
    expect(boxed.records[0]?.outcome).toBe('pass');
    expect(open.records[0]?.outcome).toBe('fail');
  });

  flag('--sandbox-network', 'needs a sandbox to apply to', async () => {
    const r = await cli(['run', GREET, '--no-store', '--sandbox-network', 'loopback']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--sandbox-network needs a sandbox');
  });

  // The queue itself (workers, SIGKILL, exactly once) is proven in queue-cli.test.ts with PostgreSQL;
  // --priority, --max-in-flight and --tags over two workers in queue-fairness.test.ts.
  flag('--queue', 'takes a PostgreSQL URL only, and is its own store', async () => {
    const sqlite = await cli(['run', GREET, '--queue', 'runs.db']);
    expect(sqlite.status).toBe(2);
    expect(sqlite.stderr).toMatch(/the queue needs a postgres/i);
    const both = await cli(['run', GREET, '--queue', 'postgres://127.0.0.1:1/x', '--no-store']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('leave out --store');
  });

  for (const [name, args] of [
    ['--detach', ['--detach']],
    ['--watch', ['--watch']],
    ['--job-expiry', ['--job-expiry', '30']],
    ['--priority', ['--priority', '5']],
    ['--max-in-flight', ['--max-in-flight', '2']],
    ['--tags', ['--tags', 'gpu']],
  ] as const) {
    flag(name, 'applies only with --queue: without it the run is refused, not run as if unsaid', async () => {
      const r = await cli(['run', GREET, '--no-store', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${name} only apply with --queue`);
      expect(r.stdout).toBe('');
    });
  }

  flag('--grace', 'how long a trial in flight at Ctrl-C may finish', async () => {
    const interrupted = async (grace: string) => {
      const dir = await scratch();
      const calls = join(dir, 'calls.txt');
      const db = join(dir, 'runs.db');
      const args = ['run', GREET, '--harness', harness('patient'), '--filter-id', 'greet-ada'];
      const run = startCli([...args, '--store', db, '--no-progress', '--grace', grace], ROOT, {
        CALLS_FILE: calls,
      });
      // SIGINT once the trial has started: it needs 1.5 s more.
      const until = Date.now() + 20_000;
      while (!existsSync(calls) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      run.child.kill('SIGINT');
      const r = await run.done;
      const id = /(exp-\d{8}-\d{6}-[0-9a-f]{4})/.exec(r.stderr)?.[1] ?? '';
      const shown = await cli(['runs', 'show', id, '--store', db]);
      return { ...r, shown: shown.stdout };
    };
    const abandoned = await interrupted('0');
    expect(abandoned.status, abandoned.stderr).toBe(130);
    expect(abandoned.stderr).toContain('finishing in-flight trials (up to 0 s)');
    expect(abandoned.stderr).toMatch(/resume with: .*--grace 0/);
    expect(abandoned.shown).toMatch(/interrupted/);
    const waited = await interrupted('20');
    expect(waited.status, waited.stderr).toBe(0);
    expect(waited.stderr).toContain('finishing in-flight trials (up to 20 s)');
    expect(waited.shown).toMatch(/completed/);
  });

  flag('--timeout-multiplier', 'scales a Harbor task’s agent and verifier timeouts', async () => {
    const args = ['run', 'suites/harbor-examples', '--harness', 'oracle', '--filter-id', '*hello-file'];
    const json = ['--no-store', '--no-progress', '--reporter', 'json'];
    const tiny = JSON.parse(
      (await cli([...args, ...json, '--timeout-multiplier', '0.0001'])).stdout,
    ) as Experiment;
    expect(tiny.settings.timeout_multiplier).toBe(0.0001);
    expect(tiny.records[0]?.outcome).not.toBe('pass');
  });

  it('every flag of `run` has a test above, and the README names only real flags', async () => {
    const io = {
      stdout: new Writable({ write: (_c, _e, done) => done() }),
      stderr: new Writable({ write: (_c, _e, done) => done() }),
      env: {},
      cwd: ROOT,
      debug: false,
    };
    const run = buildProgram(io, 'run').commands.find((c) => c.name() === 'run');
    const declared = new Set(run?.options.map((o) => o.long ?? ''));
    expect([...declared].filter((name) => !tested.has(name))).toEqual([]);
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| `run <file>`')) ?? '';
    const named = [...row.matchAll(/`(--[a-z-]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !declared.has(name))).toEqual([]);
  });
});
