import { resolve } from 'node:path';
import type { AgentV1 } from '../adapters/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { copyPluginSet, defaultPlugins, type PluginSet } from '../plugins/set.ts';
import { TrialChecks } from '../runner/checks.ts';
import type { TrialDeadlines } from '../runner/deadline.ts';
import type { RunnerEvent } from '../runner/events.ts';
import type { RateLimiter } from '../runner/rate-limiter.ts';
import { resumedTasks } from '../runner/resume-plan.ts';
import { RubricGrader } from '../runner/rubric-grader.ts';
import { stepTasks } from '../runner/steps.ts';
import type { TrialSetup } from '../runner/trial.ts';
import { createTrialSetup } from '../runner/trial-setup.ts';
import { checkCodebases } from '../runner/workspace.ts';
import type { ExperimentDocument } from '../store/documents.ts';
import { secretRedactor } from '../store/redact.ts';
import { type QueueStore, queuePlanOf } from './trial-job.ts';

/**
 * Loads a suite file with its `plugins:` modules registered in `plugins` (the CLI passes
 * `formats`' loader: the queue knows no file format).
 */
export type SuiteLoader = (path: string, plugins: PluginSet) => Promise<Suite>;

/** What a worker holds for each experiment it takes jobs of. */
export interface QueuedExperiment {
  readonly experiment: ExperimentDocument;
  readonly suite: Suite;
  readonly tasks: readonly Task[];
  /** Each task's index in `tasks`, by id: a job names its task by id (a search of 100,000 tasks per job cost more than the trial). */
  readonly taskIndexes: ReadonlyMap<string, number>;
  /** The experiment's own plugin set: the worker's, plus the modules its suite names. */
  readonly plugins: PluginSet;
  readonly setup: TrialSetup;
  /** The experiment's own trial signals: aborting them stops its trials here (a cancel), no other's. */
  readonly deadlines: TrialDeadlines;
  close(): Promise<void>;
}

/**
 * The experiment's suite as this checkout has it: the file the queue plan names, relative to
 * `cwd`, refused when its hash differs from the one the experiment was planned with.
 */
export async function loadQueuedSuite(
  experiment: ExperimentDocument,
  cwd: string,
  load: SuiteLoader,
  plugins: PluginSet,
): Promise<Suite> {
  const plan = queuePlanOf(experiment);
  const suite = await load(resolve(cwd, plan.suite_file), plugins);
  const planned = experiment.suite.hash;
  const here = suite.source?.hash;
  if (planned !== undefined && here !== planned) {
    throw new HarnessEvalError(
      'invalid_input',
      `refusing experiment ${experiment.id}: it was planned with suite ${plan.suite_file} at hash ${planned}, but this checkout's file has hash ${here ?? 'none'}; run the worker on the same version of the suite`,
      { data: { experimentId: experiment.id, planned, here } },
    );
  }
  return suite;
}

export interface OpenQueuedOptions {
  readonly store: QueueStore;
  readonly experimentId: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly loadSuite: SuiteLoader;
  /** The worker's plugins (its `--plugin` modules); each experiment gets a copy, the default set's when absent. */
  readonly plugins?: PluginSet;
  readonly deadlines: TrialDeadlines;
  readonly emit: (event: RunnerEvent) => Promise<void>;
  /** Counts the harness's `rate_limits` over every worker. */
  readonly rateLimiter: RateLimiter;
}

/** Prepares to run trials of a queued experiment exactly as the local runner would. */
export async function openQueuedExperiment(options: OpenQueuedOptions): Promise<QueuedExperiment> {
  const experiment = await options.store.getExperimentDocument(options.experimentId);
  if (experiment === undefined)
    throw new HarnessEvalError('not_found', `no experiment ${options.experimentId} in the store`);
  const plan = queuePlanOf(experiment);
  // One set per experiment: the plugin modules one suite names never change another's names.
  const plugins = copyPluginSet(options.plugins ?? defaultPlugins);
  const suite = await loadQueuedSuite(experiment, options.cwd, options.loadSuite, plugins);
  const tasks = resumedTasks(suite, experiment);
  await checkCodebases(tasks);
  // As the local runner: `--judge` (kept in the plan) over the suite's, and a multi-step task's
  // steps checked like tasks of their own.
  const rubrics = await RubricGrader.create(suite, plan.judge ?? suite.judge, options.env);
  const checks = await TrialChecks.prepare(
    suite,
    [...tasks, ...tasks.flatMap(stepTasks)],
    options.env,
    rubrics,
    plugins.evaluators,
  );
  const harnessBaseDir = resolve(options.cwd, plan.harness_dir);
  const agent: AgentV1 = await plugins.adapters.createAgent(experiment.harness, {
    baseDir: harnessBaseDir,
    env: options.env,
  });
  const setup = await createTrialSetup({
    experimentId: experiment.id,
    suite,
    suiteDir: resolve(options.cwd, plan.suite_file, '..'),
    harness: experiment.harness,
    harnessBaseDir,
    agent,
    agentGiven: false,
    checks,
    deadlines: options.deadlines,
    settings: experiment.settings,
    keepWorkspaces: plan.keep_workspaces,
    redact: secretRedactor(options.env),
    emit: options.emit,
    env: options.env,
    rateLimiter: options.rateLimiter,
  });
  return {
    experiment,
    suite,
    tasks,
    taskIndexes: new Map(tasks.map((task, index) => [task.id, index])),
    plugins,
    setup,
    deadlines: options.deadlines,
    close: async () => {
      await setup.gateway?.close();
      await agent.close?.();
    },
  };
}
