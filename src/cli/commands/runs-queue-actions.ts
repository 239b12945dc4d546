import type { ExperimentDocument } from '../../store/documents.ts';
import { resolveExperimentId } from '../../store/resolve-id.ts';
import { CliExit, EXIT } from '../exit.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import { ProgressDisplay } from '../progress.ts';
import { chosenStore, shownStore } from '../store-location.ts';
import { openQueueAt } from './queue-connection.ts';

interface QueueChoice {
  readonly store?: string | undefined;
  readonly id: string;
}

type QueueConnection = Awaited<ReturnType<typeof openQueueAt>>;

async function withConnection<T>(
  url: string,
  io: CliIO,
  use: (connection: QueueConnection) => Promise<T>,
): Promise<T> {
  const connection = await openQueueAt(url, io.env);
  try {
    return await use(connection);
  } finally {
    await connection.queue.close();
    await connection.store.close();
  }
}

async function withQueue<T>(
  io: CliIO,
  choice: QueueChoice,
  use: (connection: QueueConnection, id: string, shown: string) => Promise<T>,
): Promise<T> {
  const url = chosenStore(choice.store, io.env);
  return withConnection(url, io, async (connection) =>
    use(connection, await resolveExperimentId(connection.store, choice.id), shownStore(url)),
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * `runs cleanup --queue`: deletes the job rows the queue no longer needs (queue-cleanup.ts) and
 * says what it deleted and kept; returns whether it had anything to say.
 */
export async function cleanupQueueRows(io: CliIO, url: string): Promise<boolean> {
  const { cleanupQueue } = await import('../../queue/queue-cleanup.ts');
  const report = await withConnection(url, io, ({ store, queue }) => cleanupQueue(store, queue));
  const where = shownStore(url);
  const lines: string[] = [];
  const rows = (n: number) => plural(n, 'job row');
  if (report.finished.rows > 0)
    lines.push(
      `Deleted ${rows(report.finished.rows)} of ${plural(report.finished.experiments, 'finished experiment')} from the queue in ${where}.`,
    );
  if (report.gone.rows > 0)
    lines.push(
      `Deleted ${rows(report.gone.rows)} of ${plural(report.gone.experiments, 'deleted experiment')} from the queue in ${where}.`,
    );
  if (report.interrupted.rows > 0)
    lines.push(
      `Kept ${rows(report.interrupted.rows)} of ${plural(report.interrupted.experiments, 'interrupted experiment')}: run --resume ID --queue … puts their cancelled and failed jobs back (runs delete ID removes them).`,
    );
  if (report.running.rows > 0)
    lines.push(
      `Kept ${rows(report.running.rows)} of ${plural(report.running.experiments, 'experiment')} still running or with jobs not yet ended.`,
    );
  for (const line of lines) io.stdout.write(`${line}\n`);
  return lines.length > 0;
}

/** `runs delete ID` of a queued experiment: its jobs, in any state, before the experiment. */
export async function deleteQueuedJobs(
  io: CliIO,
  url: string,
  experiment: ExperimentDocument,
): Promise<number> {
  const { deleteExperimentJobs } = await import('../../queue/prune-jobs.ts');
  return withConnection(url, io, ({ queue }) => deleteExperimentJobs(queue, experiment));
}

/** `runs cancel ID`: the experiment's outstanding jobs are cancelled; it is marked interrupted. */
export async function cancelRun(io: CliIO, choice: QueueChoice): Promise<void> {
  await withQueue(io, choice, async ({ store, queue }, id) => {
    const { cancelExperiment } = await import('../../queue/follow.ts');
    const { cancelled, wasRunning } = await cancelExperiment(store, queue, id);
    io.stderr.write(
      `cancelled ${cancelled} queued trials of experiment ${id}${wasRunning ? '; it is marked interrupted' : ''} (workers stop its running trials within a second or two and store nothing of them; resume with run --resume ${id} --queue …)\n`,
    );
  });
}

/** `runs watch ID`: follows a queued experiment from any machine until it is no longer running. */
export async function watchRun(io: CliIO, choice: QueueChoice): Promise<void> {
  const status = await withQueue(io, choice, async ({ store, queue }, id) => {
    const [{ followExperiment, loadQueuedSuite }, { loadSuiteWithPlugins }] = await Promise.all([
      import('../../queue/index.ts'),
      import('../../plugins/file-plugins.ts'),
    ]);
    // With the suite (this is a checkout of it) the watcher can finish what no worker finished.
    const plugins = await invocationPlugins(io);
    const document = await store.getExperimentDocument(id);
    const suite =
      document === undefined
        ? undefined
        : await loadQueuedSuite(document, io.cwd, loadSuiteWithPlugins, plugins).catch(() => undefined);
    const progress = new ProgressDisplay(io, io.stderr.isTTY === true);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    try {
      const followed = await followExperiment({
        store,
        queue,
        experimentId: id,
        ...(suite === undefined ? {} : { suite }),
        metrics: plugins.metrics,
        signal: stop.signal,
        onProgress: (p) => progress.update(p),
      });
      progress.finish();
      if (followed === undefined) return EXIT.interrupted;
      if (followed.failure !== undefined)
        io.stderr.write(`harnesseval: the queue gave up on some trials: ${followed.failure}\n`);
      const { experiment } = followed;
      const outcome = experiment.outcome === undefined ? '' : `, outcome ${experiment.outcome}`;
      io.stdout.write(`experiment ${id} ${experiment.status}${outcome}\n`);
      return experiment.status === 'completed' ? EXIT.ok : EXIT.failure;
    } finally {
      process.off('SIGINT', onSignal);
    }
  });
  if (status !== EXIT.ok) throw new CliExit(status);
}
