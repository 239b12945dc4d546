import type { AgentV1 } from '../adapters/types.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment, RunSettings } from '../core/experiment.ts';
import { gradedEvaluatorsAsCriteria } from '../core/graded-evaluators.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { SandboxConfig } from '../core/sandbox-config.ts';
import type { Suite } from '../core/suite.ts';
import { sizeMatchPool } from '../evaluators/match-pool.ts';
import { builtinMetricsOnly, metricRecord } from '../metrics/metric-record.ts';
import { defaultPlugins, type PluginSet } from '../plugins/set.ts';
import { ExperimentStream } from '../scoring/experiment-stream.ts';
import type { CompleteText } from '../scoring/judge.ts';
import type { JudgeConfig } from '../scoring/judge-config.ts';
import { secretRedactor } from '../store/redact.ts';
import type { ExperimentStore } from '../store/types.ts';
import { withChildGroupListener } from '../util/child-groups.ts';
import { TurnQueue } from '../util/turn-queue.ts';
import { TrialChecks } from './checks.ts';
import { endOrphans, recordingListener } from './child-records.ts';
import { TrialDeadlines } from './deadline.ts';
import type { RunnerEvent, RunnerListener, RunProgress } from './events.ts';
import { type HarnessInput, resolveHarness } from './harness-input.ts';
import { InOrder, StoredFeed } from './in-order.ts';
import { takeLease } from './lease.ts';
import { finishExperiment, planExperiment, suiteDirOf } from './lifecycle.ts';
import { planTrials, type Trial, type TrialPlan } from './plan.ts';
import { RubricGrader } from './rubric-grader.ts';
import { checkSandboxFor } from './sandbox-step.ts';
import { stepTasks } from './steps.ts';
import { runTrial } from './trial.ts';
import { createTrialSetup } from './trial-setup.ts';
import { checkCodebases } from './workspace.ts';

export interface RunExperimentOptions {
  readonly suite: Suite;
  /**
   * A config naming an adapter, or the harness in code (a `Harness` with `run(task, ctx)`, or an
   * `AgentV1`) — the same object `Evaluator` takes; it is recorded as an `in-process` harness
   * named after its `name`, with `harnessVersion` as its version.
   */
  readonly harness: HarnessInput;
  /** The version recorded for a harness given in code (default `0.0.0`). */
  readonly harnessVersion?: string;
  /** The agent to drive; created from `harness` (its adapter and options) when absent. */
  readonly agent?: AgentV1;
  /** Folder that relative paths in the harness options resolve against. */
  readonly harnessBaseDir?: string;
  /**
   * Only what was asked for: the rest takes the defaults (a new run) or the stored plan (a resume,
   * which refuses plan settings — epochs, filters, seed, timeout, retries — that differ from it).
   */
  readonly settings?: Partial<RunSettings>;
  readonly store?: ExperimentStore;
  /** Continue this stored experiment: only the missing trials of its stored plan run. */
  readonly resume?: string;
  /**
   * Run again the trials of this stored experiment that errored for reasons outside the harness
   * (`RETRYABLE_ERROR_KINDS`); their new records replace the old ones, nothing else runs.
   */
  readonly retryErrors?: string;
  readonly experimentId?: string;
  readonly name?: string;
  /**
   * The evaluators, metrics and adapters the suite and the harness name are looked up in
   * (`createPluginSet(...)`); the default set (`registerEvaluator` & co.) when absent. Two runs
   * in one process with different sets use different plugins under the same names.
   */
  readonly plugins?: PluginSet;
  /** Metrics to compute; the suite's, or the defaults, when absent. */
  readonly metrics?: readonly MetricRef[];
  /** Aborting it stops scheduling; in-flight trials get `graceMs` to finish, then are abandoned. */
  readonly signal?: AbortSignal;
  readonly graceMs?: number;
  /** Aborting it abandons the in-flight trials at once (a second Ctrl-C). */
  readonly stopNow?: AbortSignal;
  readonly onEvent?: RunnerListener;
  /**
   * `false`: the returned experiment's `records` is empty (each record went to the store and by in
   * its `trial_end` event), and each record is folded into the metrics as it finishes
   * (`ExperimentStream`, in plan order), so the run keeps nothing per trial and its memory does not
   * follow the trial count. A plugin's metric without a `fold` makes the run keep a cut record per
   * trial (`metricRecord`) instead. Default `true`.
   */
  readonly keepRecords?: boolean;
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

/** The options once the harness is a config (and, for a harness given in code, its agent). */
type ResolvedRunOptions = Omit<RunExperimentOptions, 'harness'> & { readonly harness: HarnessConfig };

/**
 * Runs a suite through a harness: setup -> agent invocation -> per-trial evaluation -> aggregate
 * metrics -> result assembly. Every finished trial is in the store before its trial_end event,
 * within the turn of the event loop it finished in;
 * a trial the run stopped before it had a result is not stored (resume runs it). A library
 * function: it emits events and returns the experiment; it never prints.
 */
export async function runExperiment(input: RunExperimentOptions): Promise<Experiment> {
  const resolved = resolveHarness(input.harness, input.agent, { version: input.harnessVersion });
  // A suite built in code may name llm_rubric / human evaluators; loaded files are converted already.
  const options: ResolvedRunOptions = {
    ...input,
    suite: gradedEvaluatorsAsCriteria(input.suite),
    harness: resolved.harness,
    ...(resolved.agent === undefined ? {} : { agent: resolved.agent }),
  };
  const env = options.env ?? process.env;
  const plugins = options.plugins ?? defaultPlugins;
  const store = options.store;
  const suiteDir = suiteDirOf(options.suite);
  const harnessBaseDir = options.harnessBaseDir ?? suiteDir;
  const emit = async (event: RunnerEvent) => {
    await options.onEvent?.(event);
  };
  // What a killed run of this store left running (its recorded process groups) ends first.
  if (store !== undefined) await endOrphans(store);
  const plan = await planExperiment({ ...options, store });
  const { experiment, settings, tasks } = plan;
  // Everything that can refuse the run does so before the experiment is stored.
  await checkCodebases(tasks);
  sizeMatchPool(settings.concurrency);
  const rubrics = await RubricGrader.create(options.suite, options.judge, env, options.judgeCompletion);
  const sandbox = options.sandbox ?? options.harness.sandbox ?? options.suite.sandbox;
  await checkSandboxFor(tasks, sandbox);
  // A multi-step task's steps are checked like tasks of their own.
  const checks = await TrialChecks.prepare(
    options.suite,
    [...tasks, ...tasks.flatMap(stepTasks)],
    env,
    rubrics,
    plugins.evaluators,
  );
  experiment.metadata = { ...experiment.metadata, rubric: rubrics.status };

  const recorder = store === undefined ? undefined : recordingListener(store, experiment.id);
  const noListener = { started: () => {}, ended: () => {} };
  return withChildGroupListener(recorder ?? noListener, async () => {
    const agent =
      options.agent ??
      (await plugins.adapters.createAgent(options.harness, { baseDir: harnessBaseDir, env }));
    let lease: Awaited<ReturnType<typeof takeLease>> | undefined;
    try {
      if (store !== undefined) {
        if (plan.resumed) {
          lease = await takeLease(store, experiment.id);
          await store.updateExperiment(experiment.id, { status: 'running' });
        } else {
          await store.createExperiment(experiment);
          lease = await takeLease(store, experiment.id);
        }
      }
      return await runTrials(options, { plan, agent, checks, harnessBaseDir, suiteDir, env, emit, sandbox });
    } catch (error) {
      // Whatever broke the run, the stored experiment must not stay `running`: what finished is
      // kept, and resume continues from it.
      if (store !== undefined && lease !== undefined)
        await store.updateExperiment(experiment.id, { status: 'interrupted' }).catch(() => undefined);
      throw error;
    } finally {
      if (options.agent === undefined) await agent.close?.();
      await recorder?.flush();
      if (store !== undefined && lease !== undefined)
        await store.releaseLease(experiment.id, lease).catch(() => undefined);
    }
  });
}

interface Prepared {
  readonly plan: Awaited<ReturnType<typeof planExperiment>>;
  readonly agent: AgentV1;
  readonly checks: TrialChecks;
  readonly harnessBaseDir: string;
  readonly suiteDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly emit: (event: RunnerEvent) => Promise<void>;
  readonly sandbox: SandboxConfig | undefined;
}

async function runTrials(options: ResolvedRunOptions, prepared: Prepared): Promise<Experiment> {
  const { plan, agent, emit } = prepared;
  const { experiment, stored, settings, tasks } = plan;
  const store = options.store;
  const deadlines = new TrialDeadlines();
  // A resume runs the trials not done yet; --retry-errors only the errored ones it chose.
  const trials = planTrials(tasks, settings.epochs, (taskIndex, epoch) => stored.runs(taskIndex, epoch));
  // Without `keepRecords` the records fold into the metrics as they finish (in plan order) and
  // none is kept; a plugin's metric without a fold gets cut records instead (the same numbers).
  const keep = options.keepRecords !== false;
  const refs = options.metrics ?? options.suite.metrics;
  const builtin = builtinMetricsOnly(refs);
  const forMetrics = keep || !builtin ? (r: RunRecord) => r : metricRecord;
  const records: RunRecord[] = [];
  // The stored trials a resume keeps, read again a page at a time. Trial records carry what the
  // built-in metrics read; the default choice of metrics also asks whether a trial has a trace
  // (unless one has criteria, which decides it), and a plugin's metric may read anything, so
  // those read whole records. Folded, they are read as the fold reaches them (`StoredFeed`).
  const whole = keep || !builtin || (refs.length === 0 && !stored.criteria);
  const folding = keep
    ? undefined
    : foldingRun(options, plan, trials, (order) =>
        store === undefined
          ? undefined
          : new StoredFeed(order, keptForMetrics(stored, store, experiment.id, whole)),
      );
  if (store !== undefined && folding === undefined)
    await stored.readKept(store, experiment.id, { whole, once: false }, (r) => records.push(forMetrics(r)));
  // Read before the trial setup, which may start a gateway: a failed read leaves nothing open.
  // With `gateway:` in the harness config, every model call of the harness is recorded per trial.
  const setup = await createTrialSetup({
    experimentId: experiment.id,
    suite: options.suite,
    suiteDir: prepared.suiteDir,
    harness: options.harness,
    harnessBaseDir: prepared.harnessBaseDir,
    agent,
    agentGiven: options.agent !== undefined,
    checks: prepared.checks,
    deadlines,
    settings,
    env: prepared.env,
    keepWorkspaces: options.keepWorkspaces === true,
    redact: secretRedactor(options.env ?? process.env),
    emit,
    sandbox: prepared.sandbox,
    sandboxForwardPorts: options.sandboxForwardPorts ?? [],
  });
  const started = performance.now();
  const { kept, passed, failed, errored, pending } = stored.counts;
  const progress = { total: trials.length + kept, done: kept, passed, failed, errored, pending };

  let stopping = options.signal?.aborted ?? false;
  let graceTimer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  const onInterrupt = () => {
    stopping = true;
    void emit({ type: 'interrupting', inFlight });
    graceTimer = setTimeout(() => deadlines.abortAll(new Error('interrupted')), options.graceMs ?? 5000);
  };
  const onStopNow = () => {
    stopping = true;
    deadlines.abortAll(new Error('stopped'));
  };
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  options.stopNow?.addEventListener('abort', onStopNow, { once: true });
  if (options.stopNow?.aborted === true) onStopNow();

  await emit({ type: 'run_start', experiment, trials: trials.length, resumed: kept });
  folding?.feed?.pump();
  // Taken in plan order by whichever slot is free; made as they are taken.
  const untaken = trials[Symbol.iterator]();
  let storeFailure: string | undefined;
  // Stores, folds and announces one finished trial.
  const settle = async (trial: Trial, record: RunRecord): Promise<void> => {
    try {
      if (store) await store.appendRecord(experiment.id, record);
    } catch (error) {
      // The store cannot take results (locked for too long, disk full): stop as on Ctrl-C,
      // with what is stored kept; the trials that did not get in run again on resume.
      if (!HarnessEvalError.is(error) || error.code !== 'store') throw error;
      storeFailure ??= errorMessage(error);
      stopping = true;
      deadlines.abortAll(error);
      folding?.order.skip(trial.task.id, trial.epoch);
      folding?.feed?.pump();
      await emit({ type: 'store_failed', error: errorMessage(error) });
      return;
    }
    if (folding === undefined) records.push(forMetrics(record));
    else {
      folding.order.put(metricRecord(record));
      folding.feed?.pump();
    }
    count(progress, record);
    progress.done++;
    const snapshot: RunProgress = { ...progress, elapsed: (performance.now() - started) / 1000 };
    await emit({ type: 'trial_end', record, progress: snapshot });
  };
  // A finished trial is settled after the turn of the event loop it finished in, so that every
  // slot whose trial finished in that turn first starts its next one: an agent call never waits
  // for another trial's commit, fold or listeners, and the records of one turn reach the store
  // together (one transaction). It is still stored before its trial_end event, within that turn;
  // each slot has at most one record waiting.
  const later = new TurnQueue();
  const worker = async () => {
    let settling: Promise<void> | undefined;
    try {
      while (!stopping) {
        const step = untaken.next();
        if (step.done === true) break;
        const trial = step.value;
        inFlight++;
        let record: RunRecord | undefined;
        try {
          await emit({ type: 'trial_start', taskId: trial.task.id, epoch: trial.epoch });
          record = await runTrial(trial, setup);
        } finally {
          inFlight--;
        }
        if (record === undefined) {
          folding?.order.skip(trial.task.id, trial.epoch);
          folding?.feed?.pump();
          continue; // stopped before it had a result: resume runs it
        }
        await settling;
        const finished = record;
        settling = later.run(() => settle(trial, finished));
        // Awaited at the next record or at the end; a failure meanwhile is not an unhandled one.
        settling.catch(() => {});
      }
    } finally {
      await settling;
    }
  };

  try {
    await Promise.all(
      Array.from({ length: Math.min(settings.concurrency, Math.max(trials.length, 1)) }, worker),
    );
  } catch (error) {
    await folding?.feed?.close();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
    options.stopNow?.removeEventListener('abort', onStopNow);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
    await setup.gateway?.close();
  }
  await folding?.feed?.drain();
  folding?.order.finish();

  const interrupted = (stopping || storeFailure !== undefined) && progress.done < progress.total;
  const finish = (withStore: boolean, asInterrupted: boolean) =>
    finishExperiment(experiment, records, tasks, settings, asInterrupted, {
      suite: options.suite,
      metrics: options.metrics,
      metricRegistry: (options.plugins ?? defaultPlugins).metrics,
      ...(folding === undefined ? {} : { stream: folding.stream }),
      ...(withStore ? { store } : {}),
    });
  let finished: Experiment | undefined;
  // The store may still be locked by whoever made the run stop: it gets two more waits.
  for (let attempt = 0; attempt < 3 && finished === undefined; attempt++) {
    try {
      finished = await finish(true, interrupted);
    } catch (error) {
      if (!HarnessEvalError.is(error) || error.code !== 'store') throw error;
      await emit({ type: 'store_failed', error: errorMessage(error) });
    }
  }
  // Still refused: the stored experiment stays as it is (resume finishes it); report what ran.
  finished ??= await finish(false, true);
  if (!keep) finished = { ...finished, records: [] };
  await emit({ type: 'run_end', experiment: finished });
  return finished;
}

/**
 * The run's metrics folded as its records finish, in plan order; undefined when a metric has no
 * fold (a plugin's) or a stored record of a resume lies outside the plan (or repeats a trial):
 * then records are kept. The stored trials a resume keeps are expected too; `feed` reads them
 * from the store as the fold reaches them.
 */
function foldingRun(
  options: ResolvedRunOptions,
  plan: Prepared['plan'],
  trials: TrialPlan,
  feed: (order: InOrder) => StoredFeed | undefined,
): { readonly stream: ExperimentStream; readonly order: InOrder; readonly feed?: StoredFeed } | undefined {
  const { tasks, settings, stored } = plan;
  if (stored.irregular > 0) return undefined;
  const stream = ExperimentStream.create({
    suite: options.suite,
    tasks: tasks.map((t) => ({ id: t.id, weight: t.weight, cluster: t.cluster })),
    epochs: settings.epochs,
    metrics: options.metrics,
    registry: (options.plugins ?? defaultPlugins).metrics,
  });
  if (stream === undefined) return undefined;
  const order = new InOrder(
    tasks.map((t) => t.id),
    settings.epochs,
    (record) => stream.add(record),
  );
  for (const trial of trials) order.expect(trial.task.id, trial.epoch);
  let kept = 0;
  for (const { taskId, epoch } of stored.keptTrials()) if (order.expectStored(taskId, epoch)) kept++;
  const fed = kept === 0 ? undefined : feed(order);
  if (fed === undefined) order.storedEnded();
  return { stream, order, ...(fed === undefined ? {} : { feed: fed }) };
}

/** The kept records of a resume, read as the fold takes them, cut to what the metrics read. */
async function* keptForMetrics(
  stored: Prepared['plan']['stored'],
  store: ExperimentStore,
  experimentId: string,
  whole: boolean,
): AsyncGenerator<RunRecord> {
  for await (const record of stored.keptRecords(store, experimentId, { whole })) yield metricRecord(record);
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
