import type { HarnessConfig } from '../../core/harness-config.ts';
import type { JudgeConfig } from '../../core/judge.ts';
import type { SandboxConfig } from '../../core/sandbox-config.ts';
import type { Suite } from '../../core/suite.ts';
import type { QueueProgress } from '../../queue/follow.ts';
import type { ReporterV1 } from '../../reporters/types.ts';
import { EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { ProgressDisplay } from '../progress.ts';
import { shownStore } from '../store-location.ts';
import { openQueueAt } from './queue-connection.ts';
import { askedSettings, type RunFlags } from './run-action.ts';
import { report } from './run-report.ts';

export interface QueuedRunInvocation {
  readonly file: string;
  readonly suite: Suite;
  readonly harness: HarnessConfig;
  readonly harnessBaseDir: string;
  /** The sandbox the suite, harness or flags ask for: queue workers do not run one yet. */
  readonly sandbox: SandboxConfig | undefined;
  /** `--judge`, stored with the plan so every worker grades with it. */
  readonly judge: JudgeConfig | undefined;
  readonly flags: RunFlags;
  readonly given: ReadonlySet<string>;
  readonly io: CliIO;
  readonly fileReporters: readonly { readonly reporter: ReporterV1; readonly destination: string }[];
  readonly stdoutReporters: readonly ReporterV1[];
}

/** `run --queue URL`: stores the experiment, enqueues its trials, and follows it (unless --detach). */
export async function runQueued(run: QueuedRunInvocation): Promise<number> {
  const { flags, io } = run;
  const url = flags.queue ?? '';
  if (flags.store === false || (typeof flags.store === 'string' && flags.store !== url)) {
    io.stderr.write('harnesseval: --queue stores the experiment in its own database; leave out --store\n');
    return EXIT.usage;
  }
  if (run.sandbox !== undefined) {
    io.stderr.write(
      'harnesseval: --queue workers do not run trials in a sandbox yet; run without --queue, or without a sandbox\n',
    );
    return EXIT.usage;
  }
  if (flags.retryErrors !== undefined) {
    io.stderr.write('harnesseval: --retry-errors runs on one machine; it cannot be combined with --queue\n');
    return EXIT.usage;
  }
  if (flags.detach === true && flags.watch === true) {
    io.stderr.write('harnesseval: --detach and --watch contradict each other; give one\n');
    return EXIT.usage;
  }
  let connection: Awaited<ReturnType<typeof openQueueAt>>;
  try {
    connection = await openQueueAt(url, io.env);
  } catch (error) {
    return reportError(io, error);
  }
  const { store, queue } = connection;
  try {
    const { enqueueExperiment, followExperiment } = await import('../../queue/index.ts');
    let enqueued: Awaited<ReturnType<typeof enqueueExperiment>>;
    try {
      enqueued = await enqueueExperiment({
        store,
        queue,
        suite: run.suite,
        harness: run.harness,
        harnessBaseDir: run.harnessBaseDir,
        cwd: io.cwd,
        settings: askedSettings(flags, run.given),
        ...(flags.resume === undefined ? {} : { resume: flags.resume }),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.jobExpiry === undefined ? {} : { jobExpirySeconds: flags.jobExpiry }),
        ...(flags.priority === undefined ? {} : { priority: flags.priority }),
        ...(flags.maxInFlight === undefined ? {} : { maxInFlight: flags.maxInFlight }),
        ...(flags.tags === undefined ? {} : { tags: flags.tags }),
        ...(run.judge === undefined ? {} : { judge: run.judge }),
        ...(run.given.has('keepWorkspaces') ? { keepWorkspaces: flags.keepWorkspaces } : {}),
      });
    } catch (error) {
      return reportError(io, error, {
        invalid_input: EXIT.usage,
        invalid_config: EXIT.usage,
        not_found: EXIT.usage,
      });
    }
    const id = enqueued.experiment.id;
    const already = enqueued.stored > 0 ? ` (${enqueued.stored} already stored)` : '';
    io.stderr.write(`queued ${enqueued.queued} trials of experiment ${id} in ${shownStore(url)}${already}\n`);
    if (flags.detach === true) {
      io.stdout.write(`${id}\n`);
      io.stderr.write(
        `follow with: harnesseval runs --store ${shownStore(url)} watch ${id}\nstart workers with: harnesseval worker --queue ${shownStore(url)}\n`,
      );
      return EXIT.ok;
    }
    const progress = flags.progress ? new ProgressDisplay(io, io.stderr.isTTY === true) : undefined;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const followed = await followExperiment({
        store,
        queue,
        experimentId: id,
        suite: run.suite,
        ...(io.plugins === undefined ? {} : { metrics: io.plugins.metrics }),
        signal: stop.signal,
        onProgress: (p: QueueProgress) => progress?.update(p),
      });
      progress?.finish();
      if (followed === undefined) {
        io.stderr.write(
          `harnesseval: stopped following; the workers go on. Follow again with: harnesseval runs --store ${shownStore(url)} watch ${id} (or stop them: runs cancel ${id})\n`,
        );
        return EXIT.interrupted;
      }
      if (followed.failure !== undefined)
        io.stderr.write(`harnesseval: the queue gave up on some trials: ${followed.failure}\n`);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    // The workers streamed the records to the store: the reports read them a page at a time.
    const document = await store.getExperimentDocument(id);
    if (document === undefined) return reportError(io, new Error(`experiment ${id} vanished from the store`));
    return await report(
      {
        ...run,
        judge: undefined,
        sandbox: undefined,
        store,
        inputs: { file: run.file, harness: flags.harness, keep: ['--queue', shownStore(url)] },
      },
      { ...document, records: [] },
      { from: 'store', store },
    );
  } finally {
    await queue.close();
    await store.close();
  }
}
