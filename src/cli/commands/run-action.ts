import type { Experiment, RunSettings } from '../../core/experiment.ts';
import type { HarnessConfig } from '../../core/harness-config.ts';
import type { JudgeConfig } from '../../core/judge.ts';
import { type RunRecord, RunRecordSchema } from '../../core/run-record.ts';
import type { SandboxBackendName, SandboxConfig, SandboxNetwork } from '../../core/sandbox-config.ts';
import type { Suite } from '../../core/suite.ts';
import { isJsonReporter } from '../../reporters/json.ts';
import type { ReporterV1 } from '../../reporters/types.ts';
import { secretRedactor } from '../../store/redact.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { ProgressDisplay } from '../progress.ts';
import { scrubber } from '../report-pages.ts';
import { RunSpool } from '../run-spool.ts';
import { type ResumeInputs, RunSignals } from '../run-stop.ts';
import { report } from './run-report.ts';

export interface RunFlags {
  harness?: string;
  concurrency: number;
  epochs: number;
  timeout: number;
  retries: number;
  /** Seconds in-flight trials get to finish after a first Ctrl-C. */
  grace: number;
  filterId?: string;
  filterTag?: string;
  filterDifficulty?: string;
  resume?: string;
  retryErrors?: string;
  reporter: string[];
  output: string[];
  /** Every trial's row on the console, however many. */
  all?: boolean;
  /** A location, false for --no-store, absent for $HARNESSEVAL_STORE or the default file. */
  store?: string | false;
  durability: 'normal' | 'full';
  seed?: number;
  failOnThreshold: boolean;
  keepWorkspaces: boolean;
  name?: string;
  judge?: string;
  progress: boolean;
  queue?: string;
  detach?: boolean;
  watch?: boolean;
  jobExpiry?: number;
  priority?: number;
  maxInFlight?: number;
  tags?: string[];
  sandbox?: SandboxBackendName;
  sandboxNetwork?: SandboxNetwork;
  timeoutMultiplier?: number;
}

export interface RunInvocation {
  readonly suite: Suite;
  readonly harness: HarnessConfig;
  readonly harnessBaseDir: string;
  readonly judge: JudgeConfig | undefined;
  readonly sandbox: SandboxConfig | undefined;
  readonly store: ExperimentStore | undefined;
  readonly flags: RunFlags;
  /** The options given on the command line (not defaults). */
  readonly given: ReadonlySet<string>;
  readonly inputs: ResumeInputs;
  readonly io: CliIO;
  readonly fileReporters: readonly { readonly reporter: ReporterV1; readonly destination: string }[];
  readonly stdoutReporters: readonly ReporterV1[];
}

/**
 * The settings that were asked for. Defaults are left to the runner: a new run fills them in,
 * and a resume takes them from the stored plan (and refuses given ones that contradict it).
 */
export function askedSettings(flags: RunFlags, given: ReadonlySet<string>): Partial<RunSettings> {
  const filters = {
    ...(flags.filterId === undefined ? {} : { id: flags.filterId }),
    ...(flags.filterTag === undefined ? {} : { tag: flags.filterTag }),
    ...(flags.filterDifficulty === undefined ? {} : { difficulty: flags.filterDifficulty }),
  };
  return {
    ...(given.has('epochs') ? { epochs: flags.epochs } : {}),
    ...(given.has('concurrency') ? { concurrency: flags.concurrency } : {}),
    ...(given.has('timeout') ? { timeout_seconds: flags.timeout } : {}),
    ...(given.has('retries') ? { retries: flags.retries } : {}),
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.timeoutMultiplier === undefined ? {} : { timeout_multiplier: flags.timeoutMultiplier }),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}

/** Runs the experiment, writes the reports, and says how it ended; returns the exit status. */
export async function executeRun(run: RunInvocation): Promise<number> {
  const { flags, io, store } = run;
  const streaming = run.fileReporters.map((f) => f.reporter).filter((r) => r.onTrialEnd !== undefined);
  const progress = flags.progress ? new ProgressDisplay(io, io.stderr.isTTY === true) : undefined;
  const say = (text: string) =>
    progress === undefined ? io.stderr.write(`${text}\n`) : progress.message(text);
  const signals = new RunSignals(io, run.inputs, say, flags.grace);
  // The workspaces this run kept, from its trial_end events: the reports need no records for them.
  const kept: string[] = [];
  const redactText = secretRedactor(io.env);
  const scrub = scrubber(io.env);
  // With a store, what the reports read of every trial is gathered as the trials finish.
  let spool: RunSpool | undefined;
  const spoolJson = run.fileReporters.find((f) => isJsonReporter(f.reporter))?.destination;
  signals.install();
  try {
    let experiment: Experiment;
    try {
      const { runExperiment } = await import('../../runner/runner.ts');
      // Like every other command, --retry-errors takes a unique prefix of the id.
      const retryErrors =
        flags.retryErrors === undefined || store === undefined
          ? flags.retryErrors
          : await (await import('../../store/resolve-id.ts')).resolveExperimentId(store, flags.retryErrors);
      experiment = await runExperiment({
        suite: run.suite,
        harness: run.harness,
        harnessBaseDir: run.harnessBaseDir,
        ...(store === undefined ? {} : { store }),
        ...(flags.resume === undefined ? {} : { resume: flags.resume }),
        ...(retryErrors === undefined ? {} : { retryErrors }),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        keepWorkspaces: flags.keepWorkspaces,
        ...(run.judge === undefined ? {} : { judge: run.judge }),
        ...(run.sandbox === undefined ? {} : { sandbox: run.sandbox }),
        signal: signals.interrupt.signal,
        graceMs: flags.grace * 1000,
        stopNow: signals.stopNow.signal,
        env: io.env,
        ...(io.plugins === undefined ? {} : { plugins: io.plugins }),
        settings: askedSettings(flags, run.given),
        // With a store the records stream to it and the reports read them back in pages after the run.
        keepRecords: store === undefined,
        onEvent: async (event) => {
          switch (event.type) {
            case 'run_start': {
              signals.experimentId = event.experiment.id;
              if (store !== undefined)
                spool = RunSpool.start(event.experiment, event, { env: io.env, json: spoolJson });
              progress?.header(runHeader(event.experiment, event.trials, event.resumed));
              if (flags.retryErrors !== undefined)
                say(
                  `harnesseval: retrying ${event.trials} errored trials of ${event.experiment.id} (kinds: transient, timeout, environment)`,
                );
              const why = rubricPendingReason(run.suite, event.experiment);
              if (why !== undefined)
                say(
                  `harnesseval: ${why}; rubric criteria stay pending (grade them later with: harnesseval grade ${event.experiment.id})`,
                );
              for (const { reporter, destination } of run.fileReporters)
                await reporter.onRunStart?.(event.experiment, { destination });
              break;
            }
            case 'trial_start':
              progress?.trialStarted(trialLabel(event.taskId, event.epoch, flags.epochs));
              break;
            case 'trial_end':
              progress?.trialEnded(trialLabel(event.record.task_id, event.record.epoch, flags.epochs));
              if (event.record.workspace !== undefined) kept.push(redactText(event.record.workspace));
              spool?.add(event.record);
              if (streaming.length > 0) {
                // Scrubbed as the reports scrub (no text round trip without a secret in the environment).
                const record = scrub(event.record, (v) => RunRecordSchema.parse(v) as RunRecord);
                for (const reporter of streaming) await reporter.onTrialEnd?.(record);
              }
              progress?.update(event.progress);
              break;
            case 'store_failed':
              say(`harnesseval: stopping: the store refused a write: ${event.error}`);
              break;
            case 'run_end':
              progress?.finish();
              spool?.finish();
              for (const { reporter } of run.fileReporters) await reporter.onRunEnd?.(event.experiment);
              break;
            default:
              break;
          }
        },
      });
    } catch (error) {
      progress?.finish();
      return reportError(io, error, {
        invalid_input: EXIT.usage,
        invalid_config: EXIT.usage,
        not_found: EXIT.usage,
      });
    }
    signals.reporting();
    // With a store the records streamed to it: the reports read them back a page at a time.
    return await report(
      run,
      experiment,
      store === undefined
        ? { from: 'experiment' }
        : { from: 'store', store, kept, ...(spool === undefined ? {} : { spool }) },
    );
  } finally {
    spool?.dispose();
    signals.uninstall();
  }
}

/** `suite × harness@version (exp-…): N trials`, as the console report's title begins. */
function runHeader(experiment: Experiment, trials: number, resumed: number): string {
  const suite = experiment.suite.name ?? experiment.suite.id;
  const harness = `${experiment.harness.name}@${experiment.harness.version}`;
  const again = resumed > 0 ? `, ${resumed} done before` : '';
  return escapeControl(
    `${suite} × ${harness}  (${experiment.id}): ${trials} trial${trials === 1 ? '' : 's'} to run${again}`,
  );
}

function trialLabel(taskId: string, epoch: number, epochs: number): string {
  return escapeControl(epochs > 1 ? `${taskId}#${epoch}` : taskId);
}

/** Why the suite's rubric criteria will wait for a human, when it has any and no judge can grade. */
function rubricPendingReason(suite: Suite, experiment: Experiment): string | undefined {
  const rubric = experiment.metadata['rubric'];
  const reason =
    typeof rubric === 'object' && rubric !== null
      ? (rubric as { pendingReason?: unknown }).pendingReason
      : undefined;
  if (typeof reason !== 'string') return undefined;
  const graded = suite.tasks.some((t) => t.criteria.some((c) => c.verification === 'rubric'));
  return graded ? reason : undefined;
}
