import { z } from 'zod';
import { type AgentOutput, emptyTrace } from '../core/agent-output.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import { RunHarnessSchema, type RunRecord, RunRecordSchema, type WorkspaceDiff } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import { markValidated } from '../core/validated-record.ts';
import { breakdownByRole, processMetrics } from '../instrument/process-metrics.ts';
import { scoreRecord } from '../scoring/record-score.ts';
import { compileExactCheck } from '../util/exact-check.ts';
import type { TrialChecks } from './checks.ts';
import type { CostedOutput } from './cost.ts';
import type { Trial } from './plan.ts';

export interface AssembleInput {
  readonly experimentId: string;
  readonly trial: Trial;
  readonly harness: HarnessConfig;
  /** The output after the cost pass (`costTrial`), as the evaluators saw it. */
  readonly costed: CostedOutput;
  readonly attempts: number;
  readonly timestamp: string;
  readonly duration: number;
  readonly judged: Awaited<ReturnType<TrialChecks['check']>>;
  readonly rubricWeights: Record<string, number>;
  readonly suite: Suite;
  readonly keptWorkspace: string | undefined;
  /** What the harness changed against the starter codebase (tasks with a codebase). */
  readonly workspaceDiff?: WorkspaceDiff | undefined;
  /** Protected files the harness had changed, put back before checking. */
  readonly restoredFiles?: readonly string[];
}

function harnessSummary(harness: HarnessConfig) {
  return {
    name: harness.name,
    version: harness.version,
    agents: harness.agents,
    ...(harness.model === undefined ? {} : { model: harness.model }),
    ...(harness.trust_tier === undefined ? {} : { trust_tier: harness.trust_tier }),
  };
}

/** The record's harness summary, validated once per harness rather than once per trial. */
const runHarnesses = new WeakMap<HarnessConfig, RunRecord['harness_config']>();
function runHarness(harness: HarnessConfig): RunRecord['harness_config'] {
  let summary = runHarnesses.get(harness);
  if (summary === undefined) {
    summary = RunHarnessSchema.parse(harnessSummary(harness));
    runHarnesses.set(harness, summary);
  }
  return summary;
}

/**
 * The record schema as the runner checks each trial: what the harness and the evaluators produced
 * is validated; the harness summary (validated once by `runHarness`) and the process metrics
 * (computed by `processMetrics`, typed) are taken as they are. Parsing those two was half the
 * runner's per-trial CPU time.
 */
const AssembledRecordSchema = RunRecordSchema.extend({
  harness_config: z.custom<RunRecord['harness_config']>(() => true),
  metrics: z.custom<RunRecord['metrics']>(() => true),
});

/** True only when RunRecordSchema's parse would return the value unchanged (util/exact-check.ts). */
const exactRecord = compileExactCheck(RunRecordSchema);

/** One trial's record. Garbage from the harness becomes an error record, never a crash. */
export function assembleRecord(input: AssembleInput): RunRecord {
  const { judged } = input;
  const { output } = input.costed;
  const trace = output.trace ?? emptyTrace();
  const { trace: _omit, ...outputWithoutTrace } = output;
  // An error the task expects (and its checks judged) is the trial's result, not a failed trial.
  // A check that could not run (a missing package or command) makes the trial an environment
  // error: not the harness's failure, and left out of its rates.
  const environment = output.error === undefined ? environmentFailure(judged) : undefined;
  const errored = (output.error !== undefined && !judged.errorIsOutput) || environment !== undefined;
  const { scores, outcome } = scoreRecord({
    evaluations: judged.evaluations,
    criteria: judged.criteria,
    rubricWeights: input.rubricWeights,
    scoring: input.suite.scoring,
    errored,
  });
  const metrics = processMetrics(trace, judged.criteria);
  if (metrics.tokens_in === 0 && metrics.tokens_out === 0) {
    metrics.tokens_in = output.usage.tokens_in;
    metrics.tokens_out = output.usage.tokens_out;
  }
  const cost = output.usage.cost_usd;
  const draft = {
    schema_version: 1,
    run_id: `${input.experimentId}:${input.trial.key}`,
    experiment_id: input.experimentId,
    task_id: input.trial.task.id,
    epoch: input.trial.epoch,
    attempts: input.attempts,
    harness_config: harnessSummary(input.harness),
    timestamp: input.timestamp,
    duration_seconds: input.duration,
    cost_usd: cost,
    outcome,
    ...(output.error === undefined || judged.errorIsOutput ? {} : { error: output.error }),
    ...(output.error_kind === undefined || judged.errorIsOutput ? {} : { error_kind: output.error_kind }),
    ...(environment === undefined ? {} : { error: environment, error_kind: 'environment' as const }),
    input: input.trial.task.input,
    ...(input.trial.task.expected === undefined ? {} : { expected: input.trial.task.expected }),
    output: outputWithoutTrace,
    trace,
    evaluations: judged.evaluations,
    criteria: judged.criteria,
    metrics,
    by_role: breakdownByRole(trace),
    // In the schema's key order: a record already in the form its parse returns skips the parse.
    scores,
    ...(input.keptWorkspace === undefined ? {} : { workspace: input.keptWorkspace }),
    ...(input.workspaceDiff === undefined ? {} : { workspace_diff: input.workspaceDiff }),
    metadata: {
      ...input.costed.metadata,
      ...(input.restoredFiles === undefined || input.restoredFiles.length === 0
        ? {}
        : { restored_files: [...input.restoredFiles] }),
    },
  };
  const candidate = { ...draft, harness_config: runHarness(input.harness) };
  // Nearly every record is in that form (the adapters hand over fresh JSON data, the evaluators
  // build their results): one plain walk then stands for zod's parse, which was ~0.08 ms of the
  // runner's ~0.2 ms of CPU per echo trial. Anything else (a default to fill, a value zod would
  // refuse) goes through the parse, which fills it in or turns the trial into an error record.
  if (exactRecord?.(candidate) === true) return markValidated(candidate as RunRecord);
  const parsed = AssembledRecordSchema.safeParse(candidate);
  if (parsed.success) return markValidated(parsed.data);
  return RunRecordSchema.parse({
    ...draft,
    outcome: 'error',
    error: `the harness returned data HarnessEval cannot store: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    output: { output: null, latency: output.latency, error: 'invalid output', error_kind: 'invalid_output' },
    trace: emptyTrace(),
    evaluations: [],
    criteria: [],
    scores: { overall: 0 },
  });
}

/** The first check that could not run because of the environment, as the record's error. */
function environmentFailure(judged: AssembleInput['judged']): string | undefined {
  const criterion = judged.criteria.find(
    (c) => c.status === 'error' && c.details['error_kind'] === 'environment',
  );
  if (criterion !== undefined) return `environment: criterion ${criterion.id}: ${criterion.explanation}`;
  const evaluation = judged.evaluations.find(
    (e) => e.error !== undefined && e.details['error_kind'] === 'environment',
  );
  return evaluation === undefined
    ? undefined
    : `environment: ${evaluation.evaluator}: ${evaluation.explanation}`;
}

/** Models that produced the work, which therefore may not judge it. */
export function producerModels(harness: HarnessConfig, output: AgentOutput): string[] {
  const models = new Set<string>();
  if (harness.model !== undefined) models.add(harness.model);
  for (const call of output.trace?.agent_calls ?? []) if (call.model !== undefined) models.add(call.model);
  return [...models];
}
