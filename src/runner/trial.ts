import { failedOutput, refuseTooDeep } from '../adapters/agent-result.ts';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { RunSettings } from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { SandboxConfig } from '../core/sandbox-config.ts';
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
import { openTrialSandbox, type TrialSandbox } from './sandbox-step.ts';
import { runSteps, stepsTimeoutSeconds } from './steps.ts';
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
  /** Each trial's harness and checks run in a sandbox of this kind. */
  readonly sandbox: SandboxConfig | undefined;
  /** 127.0.0.1 ports a sandbox with `network: loopback` lets through (the model gateway's). */
  readonly sandboxForwardPorts: readonly number[];
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
/** The trial's sandbox, or why it could not be made (an error of the trial, not of the run). */
async function openSandbox(
  trial: Trial,
  setup: TrialSetup,
  workspace: string | undefined,
  env: Record<string, string>,
): Promise<{ box?: TrialSandbox; error?: string }> {
  if (setup.sandbox === undefined) return {};
  try {
    return {
      box: await openTrialSandbox({
        task: trial.task,
        config: setup.sandbox,
        agent: setup.agent,
        workspace,
        env,
        forwardPorts: setup.sandboxForwardPorts,
      }),
    };
  } catch (error) {
    return { error: `the ${setup.sandbox.backend} sandbox could not start: ${errorMessage(error)}` };
  }
}

/**
 * Runs one trial to its record: workspace, sandbox, agent (with retries, or step by step),
 * telemetry, protected files, evaluators and criteria. Resolves to undefined when the run was
 * stopped before the trial had a result: an interrupted trial is not a result of the harness, and
 * resume runs it again.
 */
export async function runTrial(trial: Trial, setup: TrialSetup): Promise<RunRecord | undefined> {
  const { settings, deadlines } = setup;
  const fallbackSeconds = trial.task.timeout_seconds ?? settings.timeout_seconds;
  const timeoutSeconds =
    trial.task.steps === undefined ? fallbackSeconds : stepsTimeoutSeconds(trial.task, fallbackSeconds);
  const workspace = await createWorkspace(trial.task, { fallbackDir: setup.suiteDir });
  const telemetry = setup.telemetry.files
    ? TrialTelemetry.create(trial.key, setup.telemetry.traceFile, setup.harnessBaseDir)
    : undefined;
  const timestamp = new Date().toISOString();
  const t0 = performance.now();
  const deadline = deadlines.start(timeoutSeconds * 1000);
  let box: TrialSandbox | undefined;
  let route: ReturnType<NonNullable<TrialSetup['gateway']>['open']> | undefined;
  try {
    const reportEnv = {
      HARNESSEVAL_TRIAL: trial.key,
      HARNESSEVAL_SEED: String((settings.seed ?? 0) + trial.taskIndex * 1000 + trial.epoch),
      // Where a subprocess harness appends its events (and finds its OTLP trace file name).
      ...telemetry?.env(),
    };
    const opened = await openSandbox(trial, setup, workspace?.path, reportEnv);
    box = opened.box;
    const workspacePath = box?.workspace ?? workspace?.path;
    // A model script's {{workspace}} is the folder as the harness sees it: inside a sandbox, the
    // task's workdir (Harbor's /app), not the host folder behind it.
    const seenWorkspace = box?.seenWorkspace ?? workspacePath;
    route = setup.gateway?.open({
      task: trial.task.id,
      epoch: String(trial.epoch),
      ...(seenWorkspace === undefined ? {} : { workspace: seenWorkspace }),
    });
    // ANTHROPIC_BASE_URL, OPENAI_BASE_URL and their keys, pointing at this trial's route.
    const trialEnv = { ...reportEnv, ...route?.env };
    const base = {
      experimentId: setup.experimentId,
      trial,
      harness: setup.harness,
      timestamp,
      rubricWeights: rubricWeights(setup.suite, trial.task),
      suite: setup.suite,
      keptWorkspace: setup.keepWorkspaces ? workspacePath : undefined,
    };
    const duration = () => (performance.now() - t0) / 1000;
    if (opened.error !== undefined) {
      const costed = costTrial(failedOutput('config', opened.error), setup.harness, setup.prices);
      const judged = { evaluations: [], criteria: [], errorIsOutput: false };
      return assembleRecord({
        ...base,
        costed,
        attempts: 1,
        duration: duration(),
        judged,
        restoredFiles: [],
      });
    }
    const ctx: TrialContext = {
      task: trial.task,
      epoch: trial.epoch,
      trialId: `${setup.experimentId}:${trial.key}`,
      signal: deadline.signal,
      env: trialEnv,
      ...(workspacePath === undefined ? {} : { workspace: workspacePath }),
      ...(box === undefined ? {} : { sandbox: box.sandbox }),
      ...(route === undefined ? {} : { gateway: route.gateway }),
    };
    const attemptOptions = {
      retries: settings.retries,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      random: setup.random,
      onRetry: (n: number, out: AgentOutput) =>
        void setup.emit({
          type: 'trial_retry',
          taskId: trial.task.id,
          epoch: trial.epoch,
          attempt: n,
          error: out.error ?? '',
        }),
    };
    if (trial.task.steps !== undefined) {
      const ran = await runSteps({
        task: trial.task,
        agent: setup.agent,
        ctx,
        checks: setup.checks,
        attempt: attemptOptions,
        defaultTimeoutSeconds: fallbackSeconds,
        sandbox: box?.sandbox,
        workspace: workspacePath,
        checkSignal: deadlines.stopSignal,
        producerModels: setup.harness.model === undefined ? [] : [setup.harness.model],
      });
      if (deadlines.aborted) return undefined;
      const fromHarness = telemetry === undefined ? ran.output : await telemetry.collect(ran.output);
      // The gateway saw every model call of every step: its calls replace the reported ones.
      const collected = route === undefined ? fromHarness : await route.collect(fromHarness);
      const costed = costTrial(refuseTooDeep(collected), setup.harness, setup.prices);
      const judged = { evaluations: ran.evaluations, criteria: [], errorIsOutput: false };
      const record = assembleRecord({
        ...base,
        costed,
        attempts: ran.attempts,
        duration: duration(),
        judged,
        restoredFiles: [],
      });
      record.metadata = {
        ...record.metadata,
        steps: ran.steps,
        ...(ran.stoppedAfter === undefined ? {} : { stopped_after_step: ran.stoppedAfter }),
      };
      return record;
    }
    const attempt = await attemptTrial(setup.agent, trial.task.input, ctx, attemptOptions);
    if (deadlines.aborted || attempt.output.error_kind === 'aborted') return undefined;
    const fromHarness = telemetry === undefined ? attempt.output : await telemetry.collect(attempt.output);
    // The gateway saw every model call: its calls replace the reported ones (roles kept).
    const collected = route === undefined ? fromHarness : await route.collect(fromHarness);
    // Whatever the adapter (a plugin's too), data deeper than the walks downstream can take is refused.
    const reported = overran(refuseTooDeep(collected), t0, timeoutSeconds);
    // One cost pass before any evaluator, so the `cost` evaluator sees what the record will hold.
    const costed = costTrial(reported, setup.harness, setup.prices);
    const { output } = costed;
    // What the harness changed, before the tests arrive or any check writes to the workspace:
    // kept with the record for graders and handed to the judge.
    const codebase = trial.task.files['codebase'];
    const changes =
      workspacePath === undefined || codebase === undefined
        ? undefined
        : await workspaceDiff(codebase, workspacePath, { redact: setup.redact });
    // Protected files (acceptance tests) are the task's, whatever the harness did to them; in a
    // sandbox they were withheld and arrive only now.
    const restoredFiles =
      box !== undefined
        ? await box.afterAgent()
        : workspace === undefined
          ? []
          : await restoreProtectedFiles(trial.task, workspace.path);
    // The checks run to the end on a first Ctrl-C; only the hard stop (grace over, second signal)
    // ends them, and then the trial has no result.
    const judged = await setup.checks.check(trial.task, output, {
      signal: deadlines.stopSignal,
      workspace: workspacePath,
      workspaceDiff: changes,
      producerModels: producerModels(setup.harness, output),
      sandbox: box?.sandbox,
    });
    if (deadlines.aborted) return undefined;
    const record = assembleRecord({
      ...base,
      costed,
      attempts: attempt.attempts,
      duration: duration(),
      judged,
      workspaceDiff: changes,
      restoredFiles,
    });
    if (box !== undefined && box.withheld.length > 0)
      record.metadata = { ...record.metadata, withheld_files: [...box.withheld] };
    return record;
  } finally {
    deadline.dispose();
    await box?.dispose(setup.keepWorkspaces);
    await route?.discard();
    await workspace?.dispose(setup.keepWorkspaces);
  }
}
