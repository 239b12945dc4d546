import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from './postgres.ts';
import { cli, ROOT, type RunningCli, startCli, waitFor } from './run-cli.ts';

/** The queue tests' cli harness (its `hang` input holds the first trial that gets it). */
const AGENT = join(ROOT, 'test/fixtures/queue/agent.mjs');

/** A record as `runs export` writes it, with what the queue tests look at. */
export interface ExportedRecord {
  task_id: string;
  epoch: number;
  attempts: number;
  outcome: string;
  output?: unknown;
  error?: string;
  workspace?: string;
  criteria: { id: string; status: string; grades?: { grader?: string; level?: number }[] }[];
  metrics?: Record<string, unknown>;
  metadata: { worker?: { pid: number; host: string } };
}

export interface ExportedExperiment {
  id: string;
  status: string;
  metrics: { name: string; value: number | null; n: number }[];
  records: ExportedRecord[];
}

/** `runs export ID` from the PostgreSQL store at `url`. */
export async function exportedExperiment(url: string, dir: string, id: string): Promise<ExportedExperiment> {
  const result = await cli(['runs', '--store', url, 'export', id], dir);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as ExportedExperiment;
}

/** The queue's job rows of an experiment, by state (`{}` once they are deleted). */
export async function jobRows(url: string, experimentId: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT state, count(*)::integer AS n FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1 GROUP BY state`,
      [experimentId],
    );
    return Object.fromEntries(rows.map((row: { state: string; n: number }) => [row.state, row.n]));
  } finally {
    await client.end();
  }
}

/** `harnesseval worker` processes of one test file; `stopAll` SIGKILLs what is left (afterEach). */
export class WorkerPool {
  readonly #running: RunningCli[] = [];
  readonly #started: RunningCli[] = [];

  constructor(private readonly url: string) {}

  start(
    dir: string,
    options: { jobs?: number; tags?: string; env?: NodeJS.ProcessEnv; verbose?: boolean } = {},
  ): RunningCli {
    const args = ['worker', '--queue', this.url, '-j', String(options.jobs ?? 2)];
    if (options.tags !== undefined) args.push('--tags', options.tags);
    if (options.verbose === true) args.push('--verbose');
    const started = startCli(args, dir, options.env ?? {});
    this.#running.push(started);
    this.#started.push(started);
    return started;
  }

  /** SIGTERM, then the exit status (0: it finished its trials in flight and stopped). */
  async stop(worker: RunningCli): Promise<number | null> {
    worker.child.kill('SIGTERM');
    return (await worker.done).status;
  }

  /** What every worker this pool started (killed ones too) wrote to stderr. */
  stderrOfAll(): string {
    return this.#started.map((w) => w.stderr()).join('\n');
  }

  stopAll(): void {
    for (const worker of this.#running.splice(0))
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  }
}

/** What a queue test file shares: its temp folder, its own PostgreSQL database and its workers. */
export interface QueueTestFile {
  readonly root: string;
  readonly url: string;
  readonly pool: WorkerPool;
}

/**
 * Registers the hooks of a queue test file: before all, a temp folder (`tempPrefix`…) and a new
 * database; after each test, the workers still running are SIGKILLed; after all, the folder goes.
 * The fields are read inside tests (they are set by the beforeAll).
 */
export function useQueueWorkers(tempPrefix: string): QueueTestFile {
  let root = '';
  let url = '';
  let pool: WorkerPool | undefined;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), tempPrefix));
    url = await createTestDatabase();
    pool = new WorkerPool(url);
  }, POSTGRES_SETUP_TIMEOUT_MS);
  afterEach(() => pool?.stopAll());
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  return {
    get root() {
      return root;
    },
    get url() {
      return url;
    },
    get pool() {
      if (pool === undefined) throw new Error('useQueueWorkers: the pool is made in beforeAll');
      return pool;
    },
  };
}

/** One trial of a checkout's suite: ids are `t0`, `t1`, … in order. */
export interface CheckoutTask {
  input: string;
  expected?: string;
}

/**
 * A checkout in `dir` for `worker` processes: the agent fixture copied into evals/, one seed-000
 * suite evals/NAME.yaml per `suites` entry running it (`node ./AGENT`, QUEUE_MARKS passed on), and
 * an empty `marks` folder where the agent writes what it did.
 */
export async function agentCheckout(
  dir: string,
  agent: string,
  suites: Record<string, readonly CheckoutTask[]>,
): Promise<{ dir: string; marks: string }> {
  const marks = join(dir, 'marks');
  await mkdir(join(dir, 'evals'), { recursive: true });
  await mkdir(marks);
  await copyFile(agent, join(dir, 'evals', basename(agent)));
  for (const [name, tasks] of Object.entries(suites)) {
    const tests = tasks
      .map(
        (task, i) =>
          `  - id: t${i}\n    input: "${task.input}"\n${task.expected === undefined ? '' : `    expected: "${task.expected}"\n`}`,
      )
      .join('');
    await writeFile(
      join(dir, 'evals', `${name}.yaml`),
      `version: "1.0"\nname: ${name}\nagent:\n  adapter: cli\n  command: node\n  args: ["./${basename(agent)}"]\n  inherit_env: [QUEUE_MARKS]\ntests:\n${tests}`,
    );
  }
  return { dir, marks };
}

/** One trial as the fair-agent fixture logs it: its label, when it ran (ms), and its worker's pid. */
export interface AgentRun {
  label: string;
  start: number;
  end: number;
  worker: number;
}

export async function agentRuns(marks: string): Promise<AgentRun[]> {
  const text = await readFile(join(marks, 'log.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AgentRun);
}

/** The most runs that overlapped at one moment. */
export function mostAtOnce(runs: readonly AgentRun[]): number {
  const edges = runs.flatMap((r) => [
    { at: r.start, step: 1 },
    { at: r.end, step: -1 },
  ]);
  // At equal times an end comes first: a run that ends as another starts did not overlap it.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) {
    now += edge.step;
    most = Math.max(most, now);
  }
  return most;
}

/**
 * A queued experiment (`evals/NAME.yaml` in a checkout `NAME` of the test file's folder) of four
 * quick trials, t0-t3, and t4 (`hang`), which the agent holds for two minutes; and a `--verbose`
 * worker (-j 2) that has stored t0-t3 and is in the middle of t4: what a test interrupts.
 */
export async function workerHoldingATrial(
  file: QueueTestFile,
  name: string,
): Promise<{ dir: string; marks: string; id: string; worker: RunningCli; held: { agent: number } }> {
  const tasks = Array.from({ length: 4 }, (_, i) => ({ input: `task ${i}`, expected: `task ${i}` }));
  const { dir, marks } = await agentCheckout(join(file.root, name), AGENT, {
    [name]: [...tasks, { input: 'hang', expected: 'hang' }],
  });
  const queued = await cli(['run', `evals/${name}.yaml`, '--queue', file.url, '--detach'], dir);
  expect(queued.status).toBe(0);
  const id = queued.stdout.trim();
  const worker = file.pool.start(dir, { jobs: 2, env: { QUEUE_MARKS: marks }, verbose: true });
  const heldFile = join(marks, 'held');
  await waitFor(async () => existsSync(heldFile) && (await readFile(heldFile, 'utf8')).endsWith('}'), 60_000);
  await waitFor(() => (worker.stderr().match(/^stored t[0-3]#0 /gm) ?? []).length === 4, 60_000);
  const held = JSON.parse(await readFile(heldFile, 'utf8')) as { agent: number };
  return { dir, marks, id, worker, held };
}
