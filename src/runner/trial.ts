import { failedOutput, refuseTooDeep } from '../adapters/agent-result.ts';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import type { RunSettings } from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { PriceTable } from '../instrument/pricing.ts';
import { rubricWeights } from '../scoring/rubric-lookup.ts';
import { attemptTrial } from './attempt.ts';
import type { TrialChecks } from './checks.ts';
import { costTrial } from './cost.ts';
import type { TrialDeadlines } from './deadline.ts';
import type { RunnerEvent } from './events.ts';
import type { Trial } from './plan.ts';
import { assembleRecord, producerModels } from './record.ts';
import { TrialTelemetry } from './telemetry.ts';
import type { RunGateway } from './trial-gateway.ts';
import { createWorkspace, restoreProtectedFiles } from './workspace.ts';
import { workspaceDiff } from './workspace-diff.ts';

/** What every trial of a run shares. */
export interface TrialSetup {
  readonly experimentId: string;
  readonly suite: Suite;
  readonly suiteDir: string;
  readonly harness: HarnessConfig;
  readonly harnessBaseDir: string;
  readonly agent: AgentV1;
  readonly checks: TrialChecks;
  readonly deadlines: TrialDeadlines;
  readonly settings: RunSettings;
  readonly prices: PriceTable;
  /** The run's recording model gateway (`gateway:` in the harness config): a route per trial. */
  readonly gateway: RunGateway | undefined;
  readonly random: () => number;
  /** Out-of-process harnesses report through per-trial files (`trace_file` names the OTLP one). */
  readonly telemetry: { readonly files: boolean; readonly traceFile: string | undefined };
  readonly keepWorkspaces: boolean;
  /** Scrubs secret values from the environment out of what the record keeps (the workspace diff). */
  readonly redact: (text: string) => string;
  readonly emit: (event: RunnerEvent) => Promise<void>;
}

/**
 * A synchronous loop in an in-process harness keeps the deadline's timer from firing, so the
 * agent "finishes" after its deadline; such a result is a timeout all the same.
 */
function overran(output: AgentOutput, startedAt: number, timeoutSeconds: number): AgentOutput {
  const seconds = (performance.now() - startedAt) / 1000;
  if (output.error !== undefined || seconds <= timeoutSeconds) return output;
  return failedOutput(
    'timeout',
    `the agent returned after ${seconds.toFixed(1)} s, past its ${timeoutSeconds} s deadline (an in-process harness that runs synchronous code cannot be stopped on time; run it as a cli harness to have it killed)`,
    { latency: output.latency, metadata: output.metadata },
  );
}

/**
 * Runs one trial to its record: workspace, agent (with retries), telemetry, protected files,
 * evaluators and criteria. Resolves to undefined when the run was stopped before the trial had a
 * result: an interrupted trial is not a result of the harness, and resume runs it again.
 */
export async function runTrial(trial: Trial, setup: TrialSetup): Promise<RunRecord | undefined> {
  const { settings, deadlines } = setup;
  const timeoutSeconds = trial.task.timeout_seconds ?? settings.timeout_seconds;
  const workspace = await createWorkspace(trial.task, { fallbackDir: setup.suiteDir });
  const telemetry = setup.telemetry.files
    ? TrialTelemetry.create(trial.key, setup.telemetry.traceFile, setup.harnessBaseDir)
    : undefined;
  const timestamp = new Date().toISOString();
  const t0 = performance.now();
  const deadline = deadlines.start(timeoutSeconds * 1000);
  const route = setup.gateway?.open({
    task: trial.task.id,
    epoch: String(trial.epoch),
    ...(workspace === undefined ? {} : { workspace: workspace.path }),
  });
  try {
    const ctx: TrialContext = {
      task: trial.task,
      epoch: trial.epoch,
      trialId: `${setup.experimentId}:${trial.key}`,
      signal: deadline.signal,
      env: {
        HARNESSEVAL_TRIAL: trial.key,
        HARNESSEVAL_SEED: String((settings.seed ?? 0) + trial.taskIndex * 1000 + trial.epoch),
        // Where a subprocess harness appends its events (and finds its OTLP trace file name).
        ...telemetry?.env(),
        // ANTHROPIC_BASE_URL, OPENAI_BASE_URL and their keys, pointing at this trial's route.
        ...route?.env,
      },
      ...(workspace === undefined ? {} : { workspace: workspace.path }),
      ...(route === undefined ? {} : { gateway: route.gateway }),
    };
    const attempt = await attemptTrial(setup.agent, trial.task.input, ctx, {
      retries: settings.retries,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      random: setup.random,
      onRetry: (n, out) =>
        void setup.emit({
          type: 'trial_retry',
          taskId: trial.task.id,
          epoch: trial.epoch,
          attempt: n,
          error: out.error ?? '',
        }),
    });
    if (deadlines.aborted || attempt.output.error_kind === 'aborted') return undefined;
    const fromHarness = telemetry === undefined ? attempt.output : await telemetry.collect(attempt.output);
    // The gateway saw every model call: its calls replace the reported ones (roles kept).
    const collected = route === undefined ? fromHarness : await route.collect(fromHarness);
    // Whatever the adapter (a plugin's too), data deeper than the walks downstream can take is refused.
    const reported = overran(refuseTooDeep(collected), t0, timeoutSeconds);
    // One cost pass before any evaluator, so the `cost` evaluator sees what the record will hold.
    const costed = costTrial(reported, setup.harness, setup.prices);
    const { output } = costed;
    // Protected files (acceptance tests) are the task's, whatever the harness did to them.
    const restoredFiles =
      workspace === undefined ? [] : await restoreProtectedFiles(trial.task, workspace.path);
    // What the harness changed, before any check writes to the workspace: kept with the record
    // for graders and handed to the judge.
    const codebase = trial.task.files['codebase'];
    const changes =
      workspace === undefined || codebase === undefined
        ? undefined
        : await workspaceDiff(codebase, workspace.path, { redact: setup.redact });
    // The checks run to the end on a first Ctrl-C; only the hard stop (grace over, second signal)
    // ends them, and then the trial has no result.
    const judged = await setup.checks.check(trial.task, output, {
      signal: deadlines.stopSignal,
      workspace: workspace?.path,
      workspaceDiff: changes,
      producerModels: producerModels(setup.harness, output),
    });
    if (deadlines.aborted) return undefined;
    return assembleRecord({
      experimentId: setup.experimentId,
      trial,
      harness: setup.harness,
      costed,
      attempts: attempt.attempts,
      timestamp,
      duration: (performance.now() - t0) / 1000,
      judged,
      rubricWeights: rubricWeights(setup.suite, trial.task),
      suite: setup.suite,
      keptWorkspace: setup.keepWorkspaces ? workspace?.path : undefined,
      workspaceDiff: changes,
      restoredFiles,
    });
  } finally {
    deadline.dispose();
    await route?.discard();
    await workspace?.dispose(setup.keepWorkspaces);
  }
}
