import { type Command, InvalidArgumentError } from 'commander';
import type { WorkerEvent } from '../../queue/worker.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import { chosenStore, shownStore } from '../store-location.ts';
import type { RegisterCommand } from './index.ts';
import { workerTags } from './worker-tags.ts';

const EXAMPLES = `
Examples:
  $ harnesseval worker --queue postgres://evals@db.internal/evals -j 8
  $ HARNESSEVAL_STORE=postgres://evals@db.internal/evals harnesseval worker
  $ harnesseval worker --queue postgres://evals@db.internal/evals --tags gpu,linux

Run it in a checkout of the repository that holds the suite (the folder \`run --queue\` was started
in, on another machine): jobs name the suite file relative to it, and a worker refuses a job whose
suite file differs from the one the experiment was planned with. Secrets (API keys) come from the
worker's own environment, never from the queue. SIGINT/SIGTERM: stop taking jobs and finish the
trials in flight; a second signal abandons them (their jobs go back to the queue). A worker takes
the trials of an experiment queued with --tags only when it has all of them.

It prints the trials that fail or error, retries, results dropped because the trial was stored
already, jobs put back and finished experiments, and a count of stored trials every 10 s;
--verbose prints every trial as it starts and as it is stored.`;

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number >= 1');
  return n;
}

interface WorkerFlags {
  queue?: string;
  store?: string;
  concurrency: number;
  tags?: string[];
  verbose?: boolean;
}

/** How often a worker that is not --verbose says how many trials it stored. */
const PROGRESS_EVERY_MS = 10_000;

export const register: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('worker')
    .description('take trial jobs from a queue (run --queue) and store their records')
    .option('--queue <postgres-url>', 'the queue and store (default: --store, else $HARNESSEVAL_STORE)')
    .option('--store <postgres-url>', 'the same as --queue')
    .option('-j, --concurrency <n>', 'trials run at once', positiveInt, 4)
    .option(
      '--tags <tags>',
      'this worker’s tags (comma-separated): it also takes trials queued with --tags it has',
      workerTags('--tags'),
    )
    .option('--verbose', 'print every trial as it starts and as it is stored')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: WorkerFlags) => {
      const status = await work(flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
};

/**
 * What is worth a line without --verbose: at hundreds of trials a second, a line per passing trial
 * buries the ones that need a look (and writing them cost a tenth of the worker's CPU).
 */
function notable(event: WorkerEvent): boolean {
  switch (event.type) {
    case 'trial_start':
      return event.retry > 0;
    case 'trial_stored':
      return !event.first || event.record.outcome !== 'pass';
    case 'job_failed':
    case 'experiment_finished':
    case 'experiment_cancelled':
      return true;
  }
}

function describe(event: WorkerEvent): string {
  switch (event.type) {
    case 'trial_start':
      return `running ${event.key} of ${event.experimentId}${event.retry > 0 ? ` (retry ${event.retry})` : ''}`;
    case 'trial_stored':
      return event.first
        ? `stored ${event.record.task_id}#${event.record.epoch} of ${event.experimentId}: ${event.record.outcome}`
        : `${event.record.task_id}#${event.record.epoch} of ${event.experimentId} was already stored; this result is dropped`;
    case 'job_failed':
      return `harnesseval: job of ${event.experimentId ?? 'an unknown experiment'} put back: ${event.error}`;
    case 'experiment_finished':
      return `finished experiment ${event.experimentId}`;
    case 'experiment_cancelled':
      return event.reason === 'cancelled'
        ? `experiment ${event.experimentId} was cancelled: its trials here are stopped and not stored`
        : `the jobs of experiment ${event.experimentId} held here were deleted from the queue (runs delete): its trials here are stopped and not stored`;
  }
}

async function work(flags: WorkerFlags, io: CliIO): Promise<number> {
  const url = flags.queue ?? chosenStore(flags.store, io.env);
  const [{ openQueueAt }, { runWorker }, { loadSuiteWithPlugins }, { killAllChildGroups }] =
    await Promise.all([
      import('./queue-connection.ts'),
      import('../../queue/worker.ts'),
      import('../../plugins/file-plugins.ts'),
      import('../../util/child-groups.ts'),
    ]);
  let connection: Awaited<ReturnType<typeof openQueueAt>>;
  try {
    connection = await openQueueAt(url, io.env);
  } catch (error) {
    return reportError(io, error);
  }
  const stop = new AbortController();
  const stopNow = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      io.stderr.write(
        'harnesseval: stopping: finishing the trials in flight; signal again to abandon them\n',
      );
      stop.abort();
    } else {
      killAllChildGroups();
      stopNow.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const tagged = flags.tags === undefined ? '' : `, tags ${flags.tags.join(',')}`;
  io.stderr.write(
    `worker ${process.pid} taking trials from ${shownStore(url)} (-j ${flags.concurrency}${tagged})\n`,
  );
  let storedSoFar = 0;
  let storedShown = 0;
  const progress = setInterval(() => {
    if (storedSoFar === storedShown) return;
    io.stderr.write(
      `worker ${process.pid}: ${storedSoFar} trials stored (${storedSoFar - storedShown} in the last ${PROGRESS_EVERY_MS / 1000} s)\n`,
    );
    storedShown = storedSoFar;
  }, PROGRESS_EVERY_MS);
  progress.unref();
  try {
    const { stored } = await runWorker({
      store: connection.store,
      queue: connection.queue,
      concurrency: flags.concurrency,
      ...(flags.tags === undefined ? {} : { tags: flags.tags }),
      cwd: io.cwd,
      env: io.env,
      // Each experiment's suite loads its `plugins:` into that experiment's own set.
      loadSuite: loadSuiteWithPlugins,
      plugins: await invocationPlugins(io),
      signal: stop.signal,
      stopNow: stopNow.signal,
      onEvent: (event) => {
        if (event.type === 'trial_stored' && event.first) storedSoFar += 1;
        if (flags.verbose === true || notable(event)) io.stderr.write(`${describe(event)}\n`);
      },
    });
    io.stderr.write(`worker ${process.pid} stopped; it stored ${stored} trials\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    clearInterval(progress);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await connection.queue.close();
    await connection.store.close();
  }
}
