import { dirname } from 'node:path';
import { failedOutput } from '../adapters/agent-result.ts';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import {
  type Experiment,
  type MetricResult,
  type RunSettings,
  RunSettingsSchema,
  type ThresholdViolation,
} from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { SandboxConfig } from '../core/sandbox-config.ts';
import type { Suite } from '../core/suite.ts';
import { DEFAULT_PRICES, mergePrices } from '../instrument/pricing.ts';
import type { CompleteText } from '../scoring/judge.ts';
import type { JudgeConfig } from '../scoring/judge-config.ts';
import { rubricWeights } from '../scoring/rubric-lookup.ts';
import type { ExperimentStore } from '../store/types.ts';
import { aggregateExperiment } from './aggregate.ts';
import { attemptTrial, seededRandom } from './attempt.ts';
import { TrialChecks } from './checks.ts';
import { TrialDeadlines } from './deadline.ts';
import { captureEnvironment, newExperimentId } from './environment.ts';
import type { RunnerEvent, RunnerListener, RunProgress } from './events.ts';
import { filterTasks, planTrials, type Trial, trialKey } from './plan.ts';
import { assembleRecord, producerModels } from './record.ts';
import { RubricGrader } from './rubric-grader.ts';
import { checkSandboxFor, openTrialSandbox, type TrialSandbox } from './sandbox-step.ts';
import { runSteps, stepsTimeoutSeconds, stepTasks } from './steps.ts';
import { TrialTelemetry } from './telemetry.ts';
import { createWorkspace, restoreProtectedFiles } from './workspace.ts';

export interface RunExperimentOptions {
  readonly suite: Suite;
  readonly harness: HarnessConfig;
  /** The agent to drive; created from `harness` (its adapter and options) when absent. */
  readonly agent?: AgentV1;
  /** Folder that relative paths in the harness options resolve against. */
  readonly harnessBaseDir?: string;
  readonly settings?: Partial<RunSettings>;
  readonly store?: ExperimentStore;
  /** Continue this stored experiment: only its missing trials run. */
  readonly resume?: string;
  readonly experimentId?: string;
  readonly name?: string;
  /** Metrics to compute; the suite's, or the defaults, when absent. */
  readonly metrics?: readonly MetricRef[];
  /** Aborting it stops scheduling; in-flight trials get `graceMs` to finish, then are abandoned. */
  readonly signal?: AbortSignal;
  readonly graceMs?: number;
  readonly onEvent?: RunnerListener;
  readonly env?: NodeJS.ProcessEnv;
  readonly keepWorkspaces?: boolean;
  /** The model that grades rubric criteria; without one (or its API key) they stay pending. */
  readonly judge?: JudgeConfig;
  /** Replaces the AI SDK call to the judge (tests, custom clients). */
  readonly judgeCompletion?: CompleteText;
  /** The sandbox for every trial; the harness config's, then the suite's, when absent. */
  readonly sandbox?: SandboxConfig;
  /** 127.0.0.1 ports a sandbox with `network: loopback` lets through (the model gateway's). */
  readonly sandboxForwardPorts?: readonly number[];
}

/**
 * Runs a suite through a harness: setup -> agent invocation -> per-trial evaluation -> aggregate
 * metrics -> result assembly. Every finished trial is in the store before the next event fires.
 * A library function: it emits events and returns the experiment; it never prints.
 */
export async function runExperiment(options: RunExperimentOptions): Promise<Experiment> {
  const env = options.env ?? process.env;
  const settings = RunSettingsSchema.parse({ ...options.settings });
  const suiteDir = options.suite.source === undefined ? process.cwd() : dirname(options.suite.source.file);
  const tasks = filterTasks(options.suite.tasks, settings.filters);
  if (tasks.length === 0) {
    throw new HarnessEvalError('invalid_input', 'no task matches the filters', {
      data: { filters: settings.filters },
    });
  }
  const emit = async (event: RunnerEvent) => {
    await options.onEvent?.(event);
  };

  const { experiment, done } = await openExperiment(options, settings, tasks, suiteDir);
  const rubrics = await RubricGrader.create(options.suite, options.judge, env, options.judgeCompletion);
  const sandboxConfig = options.sandbox ?? options.harness.sandbox ?? options.suite.sandbox;
  await checkSandboxFor(tasks, sandboxConfig);
  const checks = await TrialChecks.prepare(
    options.suite,
    [...tasks, ...tasks.flatMap(stepTasks)],
    env,
    rubrics,
  );
  experiment.metadata = { ...experiment.metadata, rubric: rubrics.status };
  const agent =
    options.agent ?? (await createAgentFor(options.harness, options.harnessBaseDir ?? suiteDir, env));
  const harnessBaseDir = options.harnessBaseDir ?? suiteDir;
  const prices = mergePrices(DEFAULT_PRICES, options.harness.pricing);
  // Subprocesses report through files, in-process harnesses through trackers, services in their
  // response. Reading (and removing) a per-trial file nobody can write cost an HTTP trial two syscalls.
  const reports = agent.reports ?? (options.agent === undefined ? 'files' : 'trackers');
  const traceFile = options.harness.options['trace_file'];
  const traceFileOption = typeof traceFile === 'string' ? traceFile : undefined;
  const reportsThroughFiles =
    reports === 'files' || (reports === 'response' && traceFileOption !== undefined);
  const trials = planTrials(tasks, settings.epochs, new Set(done.map((r) => trialKey(r.task_id, r.epoch))));
  const records: RunRecord[] = [...done];
  const random = seededRandom(settings.seed ?? Date.now());
  const started = performance.now();
  const progress = {
    total: trials.length + done.length,
    done: done.length,
    passed: 0,
    failed: 0,
    errored: 0,
    pending: 0,
  };
  for (const r of done) count(progress, r);

  const deadlines = new TrialDeadlines();
  let stopping = options.signal?.aborted ?? false;
  let graceTimer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  const onInterrupt = () => {
    stopping = true;
    void emit({ type: 'interrupting', inFlight });
    graceTimer = setTimeout(() => deadlines.abortAll(new Error('interrupted')), options.graceMs ?? 5000);
  };
  options.signal?.addEventListener('abort', onInterrupt, { once: true });

  await emit({ type: 'run_start', experiment, trials: trials.length, resumed: done.length });
  let next = 0;
  const worker = async () => {
    while (!stopping && next < trials.length) {
      const trial = trials[next++]!;
      inFlight++;
      try {
        await emit({ type: 'trial_start', taskId: trial.task.id, epoch: trial.epoch });
        const record = await runTrial(trial);
        if (record === undefined) continue; // abandoned at interrupt: resume runs it again
        if (options.store) await options.store.appendRecord(experiment.id, record);
        records.push(record);
        count(progress, record);
        progress.done++;
        const snapshot: RunProgress = { ...progress, elapsed: (performance.now() - started) / 1000 };
        await emit({ type: 'trial_end', record, progress: snapshot });
      } finally {
        inFlight--;
      }
    }
  };

  const runTrial = async (trial: Trial): Promise<RunRecord | undefined> => {
    const fallbackSeconds = trial.task.timeout_seconds ?? settings.timeout_seconds;
    const timeoutSeconds =
      trial.task.steps === undefined ? fallbackSeconds : stepsTimeoutSeconds(trial.task, fallbackSeconds);
    const workspace = await createWorkspace(trial.task, { fallbackDir: suiteDir });
    const telemetry = !reportsThroughFiles
      ? undefined
      : TrialTelemetry.create(trial.key, traceFileOption, harnessBaseDir);
    const timestamp = new Date().toISOString();
    const t0 = performance.now();
    const deadline = deadlines.start(timeoutSeconds * 1000);
    const { signal } = deadline;
    let box: TrialSandbox | undefined;
    try {
      const trialEnv = {
        HARNESSEVAL_TRIAL: trial.key,
        HARNESSEVAL_SEED: String((settings.seed ?? 0) + trial.taskIndex * 1000 + trial.epoch),
        // Where a subprocess harness appends its events (and finds its OTLP trace file name).
        ...telemetry?.env(),
      };
      const opened = await openSandbox(trial.task, workspace?.path, trialEnv);
      box = opened.box;
      const workspacePath = box?.workspace ?? workspace?.path;
      const ctx: TrialContext = {
        task: trial.task,
        epoch: trial.epoch,
        trialId: `${experiment.id}:${trial.key}`,
        signal,
        env: trialEnv,
        ...(workspacePath === undefined ? {} : { workspace: workspacePath }),
        ...(box === undefined ? {} : { sandbox: box.sandbox }),
      };
      const attemptOptions = {
        retries: settings.retries,
        baseDelayMs: 250,
        maxDelayMs: 8000,
        random,
        onRetry: (attempt: number, out: AgentOutput) =>
          void emit({
            type: 'trial_retry',
            taskId: trial.task.id,
            epoch: trial.epoch,
            attempt,
            error: out.error ?? '',
          }),
      };
      const checkSignal = options.signal ?? new AbortController().signal;
      const producers = (out: AgentOutput) => producerModels(options.harness, out);
      if (opened.error !== undefined) {
        const output = failedOutput('config', opened.error);
        const judged = { evaluations: [], criteria: [] };
        return assembleRecord({
          ...recordBase(trial, timestamp, t0, workspacePath),
          output,
          attempts: 1,
          judged,
          restoredFiles: [],
        });
      }
      if (trial.task.steps !== undefined) {
        const ran = await runSteps({
          task: trial.task,
          agent,
          ctx,
          checks,
          attempt: attemptOptions,
          defaultTimeoutSeconds: fallbackSeconds,
          sandbox: box?.sandbox,
          workspace: workspacePath,
          checkSignal,
          producerModels: options.harness.model === undefined ? [] : [options.harness.model],
        });
        if (deadlines.aborted) return undefined;
        const output = telemetry === undefined ? ran.output : await telemetry.collect(ran.output);
        const judged = { evaluations: ran.evaluations, criteria: [] };
        const record = assembleRecord({
          ...recordBase(trial, timestamp, t0, workspacePath),
          output,
          attempts: ran.attempts,
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
      const attempt = await attemptTrial(agent, trial.task.input, ctx, attemptOptions);
      if (deadlines.aborted) return undefined;
      const output = telemetry === undefined ? attempt.output : await telemetry.collect(attempt.output);
      const attempts = attempt.attempts;
      // Protected files (acceptance tests) are the task's, whatever the harness did to them; in a
      // sandbox they were withheld and arrive only now.
      const restoredFiles =
        box !== undefined
          ? await box.afterAgent()
          : workspace === undefined
            ? []
            : await restoreProtectedFiles(trial.task, workspace.path);
      const judged = await checks.check(trial.task, output, {
        signal: checkSignal,
        workspace: workspacePath,
        producerModels: producers(output),
        sandbox: box?.sandbox,
      });
      const record = assembleRecord({
        ...recordBase(trial, timestamp, t0, workspacePath),
        output,
        attempts,
        judged,
        restoredFiles,
      });
      if (box !== undefined && box.withheld.length > 0)
        record.metadata = { ...record.metadata, withheld_files: [...box.withheld] };
      return record;
    } finally {
      deadline.dispose();
      await box?.dispose(options.keepWorkspaces === true);
      await workspace?.dispose(options.keepWorkspaces === true);
    }
  };

  /** The trial's sandbox, or why it could not be made (an error of the trial, not of the run). */
  const openSandbox = async (
    task: Trial['task'],
    workspacePath: string | undefined,
    trialEnv: Record<string, string>,
  ): Promise<{ box?: TrialSandbox; error?: string }> => {
    if (sandboxConfig === undefined) return {};
    try {
      return {
        box: await openTrialSandbox({
          task,
          config: sandboxConfig,
          agent,
          workspace: workspacePath,
          env: trialEnv,
          ...(options.sandboxForwardPorts === undefined ? {} : { forwardPorts: options.sandboxForwardPorts }),
        }),
      };
    } catch (error) {
      return { error: `the ${sandboxConfig.backend} sandbox could not start: ${errorMessage(error)}` };
    }
  };

  const recordBase = (trial: Trial, timestamp: string, t0: number, workspacePath: string | undefined) => ({
    experimentId: experiment.id,
    trial,
    harness: options.harness,
    timestamp,
    duration: (performance.now() - t0) / 1000,
    rubricWeights: rubricWeights(options.suite, trial.task),
    suite: options.suite,
    keptWorkspace: options.keepWorkspaces === true ? workspacePath : undefined,
    prices,
  });

  try {
    await Promise.all(
      Array.from({ length: Math.min(settings.concurrency, Math.max(trials.length, 1)) }, worker),
    );
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
    if (options.agent === undefined) await agent.close?.();
  }

  const interrupted = stopping && progress.done < progress.total;
  const finished = await finishExperiment(experiment, records, tasks, options, settings, interrupted);
  await emit({ type: 'run_end', experiment: finished });
  return finished;
}

function count(
  progress: { passed: number; failed: number; errored: number; pending: number },
  r: RunRecord,
): void {
  if (r.outcome === 'pass') progress.passed++;
  else if (r.outcome === 'fail') progress.failed++;
  else if (r.outcome === 'error') progress.errored++;
  else progress.pending++;
}

async function createAgentFor(
  harness: HarnessConfig,
  baseDir: string,
  env: NodeJS.ProcessEnv,
): Promise<AgentV1> {
  const { createAgent } = await import('../adapters/registry.ts');
  return createAgent(harness, { baseDir, env });
}

async function openExperiment(
  options: RunExperimentOptions,
  settings: RunSettings,
  tasks: Suite['tasks'],
  suiteDir: string,
): Promise<{ experiment: Experiment; done: RunRecord[] }> {
  if (options.resume !== undefined) {
    if (options.store === undefined)
      throw new HarnessEvalError('usage', '--resume needs a store (not --no-store)');
    const stored = await options.store.getExperiment(options.resume);
    if (stored === undefined)
      throw new HarnessEvalError('not_found', `no experiment ${options.resume} in the store`);
    if (
      stored.suite.hash !== undefined &&
      options.suite.source?.hash !== undefined &&
      stored.suite.hash !== options.suite.source.hash
    ) {
      throw new HarnessEvalError(
        'invalid_input',
        `experiment ${stored.id} ran a different version of suite ${stored.suite.id}; resume needs the same file`,
      );
    }
    await options.store.updateExperiment(stored.id, { status: 'running' });
    return { experiment: { ...stored, status: 'running', records: [] }, done: stored.records };
  }
  const experiment: Experiment = {
    schema_version: 1,
    id: options.experimentId ?? newExperimentId(),
    ...(options.name === undefined ? {} : { name: options.name }),
    suite: {
      id: options.suite.id,
      ...(options.suite.name === undefined ? {} : { name: options.suite.name }),
      ...(options.suite.source === undefined
        ? {}
        : {
            file: options.suite.source.file,
            format: options.suite.source.format,
            hash: options.suite.source.hash,
          }),
      tasks: tasks.map((t) => ({
        id: t.id,
        weight: t.weight,
        ...(t.cluster === undefined ? {} : { cluster: t.cluster }),
      })),
    },
    harness: options.harness,
    status: 'running',
    created_at: new Date().toISOString(),
    settings,
    environment: captureEnvironment(suiteDir),
    records: [],
    metrics: [],
    scores: {},
    violations: [],
    metadata: {},
  };
  await options.store?.createExperiment(experiment);
  return { experiment, done: [] };
}

async function finishExperiment(
  experiment: Experiment,
  records: RunRecord[],
  tasks: Suite['tasks'],
  options: RunExperimentOptions,
  settings: RunSettings,
  interrupted: boolean,
): Promise<Experiment> {
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  records.sort((a, b) => (order.get(a.task_id) ?? 0) - (order.get(b.task_id) ?? 0) || a.epoch - b.epoch);
  const aggregate: {
    metrics: MetricResult[];
    scores: Record<string, number>;
    outcome: Experiment['outcome'];
    violations: ThresholdViolation[];
  } = await aggregateExperiment({
    suite: options.suite,
    records,
    tasks,
    epochs: settings.epochs,
    metrics: options.metrics,
  });
  const finished: Experiment = {
    ...experiment,
    status: interrupted ? 'interrupted' : 'completed',
    finished_at: new Date().toISOString(),
    records,
    ...aggregate,
  };
  await options.store?.updateExperiment(experiment.id, {
    status: finished.status,
    finished_at: finished.finished_at!,
    metrics: finished.metrics,
    scores: finished.scores,
    ...(finished.outcome === undefined ? {} : { outcome: finished.outcome }),
    violations: finished.violations,
  });
  return finished;
}
