// Deleting a finished experiment's jobs (src/queue/prune-jobs.ts) and `runs cleanup --queue`
// (src/queue/queue-cleanup.ts) at scale, on a throw-away PostgreSQL with its durable defaults.
// Run: npm run bench:queue-prune (BENCH_JOBS, default 100,000 jobs per experiment; BENCH_LEGACY,
// default 3 experiments left with all their rows, as releases before the prune left them).
// Measures: the prune's wall time and its mean statement, the job table's rows and size before and
// after, a second finisher's prune (nothing left to delete), how long takes of another
// experiment's jobs wait while the prune runs, ANALYZE of the job table before and after, the
// cleanup's pass over the legacy rows, and what VACUUM FULL gives back to the disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DELETE_BATCH, pruneFinishedJobs } from '../src/queue/prune-jobs.ts';
import { cleanupQueue } from '../src/queue/queue-cleanup.ts';
import { asQueueStore, type QueueStore } from '../src/queue/trial-job.ts';
import { TrialQueue } from '../src/queue/trial-queue.ts';
import type { ExperimentDocument } from '../src/store/documents.ts';
import { PostgresStore } from '../src/store/postgres-store.ts';
import { startCluster, stopCluster } from '../test/helpers/postgres-cluster.ts';
import { enqueueSuite, queuedSuite } from '../test/helpers/queued-suites.ts';

const JOBS = Number(process.env['BENCH_JOBS'] ?? 100_000);
const LEGACY = Number(process.env['BENCH_LEGACY'] ?? 3);
/** A queued experiment of `jobs` trials whose jobs all ran: taken, completed, marked completed. */
async function finishedExperiment(
  store: QueueStore,
  queue: TrialQueue,
  jobs: number,
): Promise<ExperimentDocument> {
  const { experiment } = await enqueueSuite(store, queue, queuedSuite(jobs));
  for (let taken = await queue.take([], 10_000); taken.length > 0; taken = await queue.take([], 10_000))
    await queue.complete(taken.map((job) => job.id));
  await store.updateExperiment(experiment.id, { status: 'completed' });
  return experiment;
}

async function table(admin: pg.Client): Promise<{ rows: number; mb: number }> {
  const { rows } = await admin.query(
    `SELECT (SELECT count(*) FROM harnesseval_queue.job)::integer AS rows,
       (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
        WHERE inhparent = 'harnesseval_queue.job'::regclass)::bigint AS bytes`,
  );
  const row = rows[0] as { rows: number; bytes: string };
  return { rows: row.rows, mb: Number(row.bytes) / 1e6 };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const clusterDir = mkdtempSync(join(tmpdir(), 'bench-prune-pg-'));
  try {
    const cluster = await startCluster({ dir: clusterDir, durable: true });
    const url = cluster.adminUrl;
    const store = asQueueStore(await PostgresStore.open(url));
    const queue = await TrialQueue.open(url);
    const taker = await TrialQueue.open(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const out: Record<string, unknown> = {
        machine: `${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)}`,
        date: new Date().toISOString().slice(0, 16),
      };
      // Rows a release before the prune left: LEGACY finished experiments of JOBS jobs each.
      for (let i = 0; i < LEGACY; i++) await finishedExperiment(store, queue, JOBS);
      const analyzeLegacy = await timed(() => admin.query('ANALYZE harnesseval_queue.job'));
      out['analyze_ms_with_legacy_rows'] = Math.round(analyzeLegacy.ms);
      out['table_with_legacy_rows'] = await table(admin);
      const cleanup = await timed(() => cleanupQueue(store, queue));
      out['cleanup'] = { ms: Math.round(cleanup.ms), ...cleanup.value.finished };
      out['table_after_cleanup'] = await table(admin);

      // One finished experiment of JOBS jobs, and another experiment's waiting jobs for a taker.
      const finished = await finishedExperiment(store, queue, JOBS);
      await enqueueSuite(store, queue, queuedSuite(20_000));
      out['table_before_prune'] = await table(admin);
      // Takes of 16 jobs in a loop, for a second alone and then while the prune runs: the longest
      // one says what the prune held up.
      const takeWhile = (running: () => boolean) => {
        const times: number[] = [];
        const done = (async () => {
          while (running()) {
            const t0 = performance.now();
            const got = await taker.take([], 16);
            times.push(performance.now() - t0);
            await taker.complete(got.map((job) => job.id));
          }
          return times.sort((a, b) => a - b);
        })();
        return done;
      };
      const summary = (times: number[]) => ({
        n: times.length,
        median_ms: Number(times[Math.floor(times.length / 2)]?.toFixed(2)),
        max_ms: Number(times.at(-1)?.toFixed(2)),
      });
      const alone = Date.now() + 1000;
      out['takes_alone'] = summary(await takeWhile(() => Date.now() < alone));
      let pruning = true;
      const takeLoop = takeWhile(() => pruning);
      const prune = await timed(() => pruneFinishedJobs(store, queue, finished));
      pruning = false;
      const takes = await takeLoop;
      const batches = Math.ceil(JOBS / DELETE_BATCH);
      out['prune'] = {
        ms: Math.round(prune.ms),
        deleted: prune.value,
        ms_per_batch: Math.round(prune.ms / batches),
      };
      out['takes_during_prune'] = summary(takes);
      const again = await timed(() => pruneFinishedJobs(store, queue, finished));
      out['second_prune'] = { ms: Math.round(again.ms), deleted: again.value };
      out['table_after_prune'] = await table(admin);
      const analyze = await timed(() => admin.query('ANALYZE harnesseval_queue.job'));
      out['analyze_ms_after_prune'] = Math.round(analyze.ms);
      const vacuum = await timed(() => admin.query('VACUUM FULL harnesseval_queue.job'));
      out['vacuum_full'] = { ms: Math.round(vacuum.ms), table: await table(admin) };
      console.log(JSON.stringify(out, null, 2));
    } finally {
      await admin.end();
      await taker.close();
      await queue.close();
      await store.close();
    }
  } finally {
    await stopCluster(clusterDir);
    rmSync(clusterDir, { recursive: true, force: true });
  }
}

await main();
