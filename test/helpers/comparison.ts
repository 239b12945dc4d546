import type { Experiment } from '../../src/core/experiment.ts';
import type { RunRecord } from '../../src/core/run-record.ts';
import { computeMetrics } from '../../src/metrics/compute.ts';
import type { MetricSpec } from '../../src/metrics/registry.ts';
import { makeExperiment, makeRecord } from './experiments.ts';

/** What one trial of a task looked like, for building experiments with known per-task values. */
export interface TrialSpec {
  readonly task: string;
  readonly epoch?: number;
  readonly pass?: boolean;
  /** The evaluator score (accuracy); default 1 for a pass, 0 otherwise. */
  readonly score?: number;
  readonly cost?: number;
  readonly hitl?: number;
  readonly overall?: number;
  readonly error?: string;
  readonly explanation?: string;
  /** The agent latency the adapter measured, in seconds. */
  readonly latency?: number;
  /** Scores of further evaluators by name (each becomes an `evaluator_score:NAME` metric). */
  readonly evaluators?: Readonly<Record<string, number>>;
}

export function trialRecord(spec: TrialSpec): RunRecord {
  const pass = spec.pass ?? true;
  return makeRecord({
    task_id: spec.task,
    epoch: spec.epoch ?? 0,
    outcome: spec.error ? 'error' : pass ? 'pass' : 'fail',
    ...(spec.error ? { error: spec.error } : {}),
    cost_usd: spec.cost ?? null,
    ...(spec.latency === undefined
      ? {}
      : { output: { output: `answer for ${spec.task}`, latency: spec.latency } }),
    evaluations: [
      {
        evaluator: 'contains',
        score: spec.score ?? (pass ? 1 : 0),
        passed: pass,
        explanation: spec.explanation ?? (pass ? 'found it' : 'expected "done"'),
      },
      ...Object.entries(spec.evaluators ?? {}).map(([evaluator, score]) => ({
        evaluator,
        score,
        passed: score >= 0.5,
        explanation: `score ${score}`,
      })),
    ],
    metrics: { hitl_unplanned: spec.hitl ?? 0 },
    ...(spec.overall === undefined ? {} : { scores: { overall: spec.overall } }),
  });
}

/**
 * A completed experiment whose records are `trials` and whose metrics are computed by the real
 * metric code (so the comparison reads the same numbers a run would have stored).
 */
export function experimentOf(
  id: string,
  trials: readonly TrialSpec[],
  options: {
    version?: string;
    name?: string;
    clusters?: Record<string, string>;
    /** Task -> domain, as a suite gathering several suites' tasks records it. */
    domains?: Record<string, string>;
    createdAt?: string;
    suiteHash?: string;
    suiteId?: string;
    metrics?: readonly MetricSpec[];
  } = {},
): Experiment {
  const taskIds = [...new Set(trials.map((t) => t.task))];
  const tasks = taskIds.map((t) => ({
    id: t,
    weight: 1,
    ...(options.clusters?.[t] ? { cluster: options.clusters[t] } : {}),
    ...(options.domains?.[t] ? { domain: options.domains[t] } : {}),
  }));
  const records = trials.map(trialRecord);
  const epochs = Math.max(1, ...trials.map((t) => (t.epoch ?? 0) + 1));
  const metrics = computeMetrics(
    options.metrics ?? ['success_rate', 'accuracy', 'cost_per_task', 'hitl_unplanned', 'overall_score'],
    {
      records,
      tasks,
      epochs,
    },
  );
  return makeExperiment({
    id,
    suite: {
      id: options.suiteId ?? 'known-suite',
      tasks,
      ...(options.suiteHash ? { hash: options.suiteHash } : {}),
    },
    harness: { name: options.name ?? 'lineage', version: options.version ?? '1.0.0', adapter: 'function' },
    created_at: options.createdAt ?? '2026-01-01T00:00:00.000Z',
    settings: { epochs },
    records,
    metrics,
  });
}
