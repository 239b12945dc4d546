import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { exportedExperiment, jobRows, WorkerPool } from './queue-workers.ts';
import { cli, type RunningCli, startCli, waitFor } from './run-cli.ts';

/**
 * The queue's fault drill, through the built CLI on a real PostgreSQL: a coordinator (`run
 * --queue`), `workers` worker processes and a real HTTP agent on 127.0.0.1 answering in 5–20 ms.
 * Worker 0 is SIGKILLed at `workerKills` random moments (and restarted each time), the
 * coordinator once at a random moment (and resumed with `run --resume ID --queue …`). Then the
 * same suite and seed run in one process into SQLite, for the metrics to compare.
 */
export interface FaultDrill {
  readonly url: string;
  readonly dir: string;
  readonly tasks: number;
  readonly epochs: number;
  readonly workers: number;
  readonly jobs: number;
  readonly workerKills: number;
  /** Called with each event as it happens (what was killed, at how many stored trials). */
  readonly log?: (line: string) => void;
}

export interface FaultResult {
  readonly experimentId: string;
  readonly wallSeconds: number;
  readonly trials: number;
  readonly records: number;
  readonly distinctTrials: number;
  /** Trials whose record counts a retry (`attempts` > 1). */
  readonly retriedRecords: number;
  /** Sum of `attempts - 1` over the records. */
  readonly retries: number;
  /** Trials the agent answered more than once (a killed worker's trial run again). */
  readonly rerunTrials: number;
  /**
   * Results a worker dropped because the trial was stored already: its first worker committed and
   * then died (or was slow) before completing the job, so the job ran again.
   */
  readonly droppedRepeats: number;
  /** Requests the agent answered for the queue's trials (more than `trials` when some ran twice). */
  readonly agentCalls: number;
  readonly kills: readonly string[];
  readonly coordinatorStatus: number | null;
  readonly queueMetrics: Record<string, { value: number | null; n: number | null }>;
  readonly localMetrics: Record<string, { value: number | null; n: number | null }>;
  readonly localStatus: number | null;
  readonly status: string;
  /** The experiment's job rows left in the queue once its coordinator and workers are done, by state. */
  readonly jobRowsLeft: Record<string, number>;
}

/** Deterministic per (task, epoch): about one answer in five is wrong, so metrics are not trivial. */
function answerFor(key: string, input: string): string {
  const byte = createHash('sha256').update(key).digest()[0] ?? 0;
  return byte % 5 === 0 ? `wrong ${input}` : input;
}

async function startAgent(): Promise<{ url: string; calls: Map<string, number>; close(): Promise<void> }> {
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const trial = String(req.headers['x-harnesseval-trial'] ?? '');
      // The trial id is `EXPERIMENT:TASK#EPOCH`; the answer depends on TASK#EPOCH only.
      const key = trial.slice(trial.indexOf(':') + 1);
      calls.set(trial, (calls.get(trial) ?? 0) + 1);
      const input = String((JSON.parse(body) as { input?: unknown }).input ?? '');
      setTimeout(
        () => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ output: answerFor(key, input) }));
        },
        5 + Math.floor(Math.random() * 16),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Metrics by name, without the ones that measure time (they differ from run to run by nature). */
function comparableMetrics(metrics: readonly { name: string; value: number | null; n?: number }[]) {
  return Object.fromEntries(
    metrics
      .filter((m) => !/latency|duration|time|throughput/i.test(m.name))
      .map((m) => [m.name, { value: m.value, n: m.n ?? null }]),
  );
}

async function storedCount(url: string, experimentId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT count(*)::integer AS n FROM harnesseval.records WHERE experiment_id = $1',
      [experimentId],
    );
    return (rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}

export async function runFaultDrill(drill: FaultDrill): Promise<FaultResult> {
  const say = drill.log ?? (() => undefined);
  const agent = await startAgent();
  const pool = new WorkerPool(drill.url);
  const kills: string[] = [];
  try {
    await mkdir(join(drill.dir, 'evals'), { recursive: true });
    const tests = Array.from(
      { length: drill.tasks },
      (_, i) => `  - id: t${String(i).padStart(4, '0')}\n    input: "task ${i}"\n    expected: "task ${i}"\n`,
    );
    await writeFile(
      join(drill.dir, 'evals', 'suite.yaml'),
      `version: "1.0"\nname: fault-drill\nagent:\n  adapter: http\n  url: ${agent.url}\n  output_path: "$.output"\ntests:\n${tests.join('')}`,
    );
    const trials = drill.tasks * drill.epochs;
    const plan = ['--epochs', String(drill.epochs), '--seed', '7', '--no-progress', '--reporter', 'json'];
    const t0 = performance.now();
    const coordinator = startCli(
      ['run', 'evals/suite.yaml', '--queue', drill.url, ...plan, '--job-expiry', '3'],
      drill.dir,
    );
    await waitFor(() => /queued \d+ trials of experiment (\S+)/.test(coordinator.stderr()), 120_000);
    const experimentId = /queued \d+ trials of experiment (\S+)/.exec(coordinator.stderr())?.[1] ?? '';
    const workers: RunningCli[] = Array.from({ length: drill.workers }, () =>
      pool.start(drill.dir, { jobs: drill.jobs }),
    );

    // Random moments, as fractions of the trials stored: the worker kills in order, the coordinator's anywhere.
    const fraction = (low: number, high: number) => low + Math.random() * (high - low);
    const moments = [
      ...Array.from({ length: drill.workerKills }, (_, i) => ({
        what: 'worker' as const,
        at: fraction(0.1 + (0.6 * i) / drill.workerKills, 0.1 + (0.6 * (i + 1)) / drill.workerKills),
      })),
      { what: 'coordinator' as const, at: fraction(0.2, 0.7) },
    ].sort((a, b) => a.at - b.at);
    let follower: RunningCli = coordinator;
    for (const moment of moments) {
      const target = Math.floor(moment.at * trials);
      await waitFor(async () => (await storedCount(drill.url, experimentId)) >= target, 600_000);
      const stored = await storedCount(drill.url, experimentId);
      if (moment.what === 'worker') {
        const victim = workers[0] as RunningCli;
        victim.child.kill('SIGKILL');
        await victim.done;
        kills.push(`worker ${victim.child.pid} SIGKILLed at ${stored}/${trials} stored`);
        workers[0] = pool.start(drill.dir, { jobs: drill.jobs });
      } else {
        follower.child.kill('SIGKILL');
        await follower.done;
        kills.push(`coordinator ${follower.child.pid} SIGKILLed at ${stored}/${trials} stored`);
        await sleep(200);
        follower = startCli(
          [
            'run',
            'evals/suite.yaml',
            '--queue',
            drill.url,
            '--resume',
            experimentId,
            '--no-progress',
            '--reporter',
            'json',
          ],
          drill.dir,
        );
      }
      say(kills.at(-1) ?? '');
    }
    const followed = await follower.done;
    const wallSeconds = (performance.now() - t0) / 1000;
    say(`coordinator exited ${followed.status} after ${wallSeconds.toFixed(1)} s`);
    for (const worker of workers) await pool.stop(worker);
    const jobRowsLeft = await jobRows(drill.url, experimentId);

    // The queue's trials only: the SQLite run below calls the same agent under another experiment id.
    const answered = [...agent.calls]
      .filter(([trial]) => trial.startsWith(`${experimentId}:`))
      .map(([, n]) => n);
    const experiment = await exportedExperiment(drill.url, drill.dir, experimentId);
    const keys = experiment.records.map((r) => `${r.task_id}#${r.epoch}`);
    const local = await cli(
      ['run', 'evals/suite.yaml', '--store', 'local.db', '-j', '8', ...plan],
      drill.dir,
    );
    const localExperiment = JSON.parse(local.stdout) as {
      metrics: { name: string; value: number | null; n: number }[];
    };
    return {
      experimentId,
      wallSeconds,
      trials,
      records: experiment.records.length,
      distinctTrials: new Set(keys).size,
      retriedRecords: experiment.records.filter((r) => r.attempts > 1).length,
      retries: experiment.records.reduce((sum, r) => sum + r.attempts - 1, 0),
      rerunTrials: answered.filter((n) => n > 1).length,
      droppedRepeats: pool
        .stderrOfAll()
        .split('\n')
        .filter((l) => l.includes('this result is dropped')).length,
      agentCalls: answered.reduce((a, b) => a + b, 0),
      kills,
      coordinatorStatus: followed.status,
      queueMetrics: comparableMetrics(experiment.metrics),
      localMetrics: comparableMetrics(localExperiment.metrics),
      localStatus: local.status,
      status: experiment.status,
      jobRowsLeft,
    };
  } finally {
    pool.stopAll();
    await agent.close();
  }
}
