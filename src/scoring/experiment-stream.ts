import { HarnessEvalError } from '../core/errors.ts';
import type { MetricResult } from '../core/experiment.ts';
import { OverallScoreTally } from '../core/overall-score.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import {
  DefaultMetricsTally,
  defaultCandidates,
  evaluatorRef,
  failedResult,
  safeResult,
} from '../metrics/compute.ts';
import { type FoldContext, type MetricFold, PriorRecords } from '../metrics/fold.ts';
import { defaultMetricRegistry, type MetricRegistry } from '../metrics/registry.ts';
import type { MetricTask, MetricV1 } from '../metrics/types.ts';
import { type Aggregate, aggregateOf, metricRefs } from './experiment-aggregate.ts';

interface Folding {
  readonly metric: MetricV1;
  readonly fold: MetricFold;
  /** What `add` threw: the metric is "n/a" with it, and gets no more records. */
  error?: unknown;
}

const keyOf = (ref: MetricRef) => `${ref.name}\u0000${JSON.stringify(ref.options)}`;

/**
 * An experiment's aggregate computed as its records arrive: every metric it could report folds
 * each record (`MetricFold`), as do the overall score and the default choice of metrics, so the
 * run keeps no record. Fed the records in the order `aggregateExperiment` reads them (by task,
 * then epoch), `aggregate()` is `aggregateExperiment`'s result, number for number.
 *
 * `create` gives undefined when a metric to compute has no fold (a plugin's metric, which may read
 * any field of a record): that run keeps its records instead.
 */
export class ExperimentStream {
  private readonly folds = new Map<string, Folding>();
  private readonly defaults = new DefaultMetricsTally();
  private readonly overall: OverallScoreTally;
  private readonly context: FoldContext;
  private readonly prior = new PriorRecords();

  private constructor(
    private readonly input: StreamInput,
    private readonly registry: MetricRegistry,
    private readonly defaulted: boolean,
  ) {
    this.overall = new OverallScoreTally(input.tasks);
    this.context = { tasks: input.tasks, epochs: input.epochs, shared: new Map() };
  }

  static create(input: StreamInput): ExperimentStream | undefined {
    const registry = input.registry ?? defaultMetricRegistry;
    const defaulted = input.metrics === undefined && input.suite.metrics.length === 0;
    const stream = new ExperimentStream(input, registry, defaulted);
    // Every metric the end can ask for: the listed ones (or every default but the evaluators',
    // which come as their evaluators appear) and what thresholds and epochs add.
    const candidates = metricRefs(input.suite, input.epochs, input.metrics, () =>
      defaultCandidates(input.epochs, true),
    );
    for (const ref of candidates) if (!stream.prepare(ref)) return undefined;
    return stream;
  }

  /** Creates the fold of `ref` (options checked: a bad one throws here, before any trial runs). */
  private prepare(ref: MetricRef, late = false): boolean {
    const key = keyOf(ref);
    if (this.folds.has(key)) return true;
    const metric = this.registry.create(ref);
    if (metric.fold === undefined) return false;
    const context = late ? { ...this.context, prior: this.prior.snapshot() } : this.context;
    this.folds.set(key, { metric, fold: metric.fold(context) });
    return true;
  }

  add(record: RunRecord): void {
    const fresh = this.defaults.add(record);
    if (this.defaulted) for (const evaluator of fresh) this.prepare(evaluatorRef(evaluator), true);
    this.overall.add(record);
    this.prior.add(record);
    for (const folding of this.folds.values()) {
      if (folding.error !== undefined) continue;
      try {
        folding.fold.add(record);
      } catch (error) {
        folding.error = error;
      }
    }
  }

  /** The aggregate of the records added so far (it can be asked again: nothing is consumed). */
  aggregate(): Aggregate {
    const refs = metricRefs(this.input.suite, this.input.epochs, this.input.metrics, () =>
      this.defaults.refs(this.input.epochs),
    );
    const metrics: MetricResult[] = refs.map((ref) => {
      const folding = this.folds.get(keyOf(ref));
      // Every ref was prepared up front or when its evaluator appeared.
      if (folding === undefined) throw new HarnessEvalError('internal', `no fold for metric ${ref.name}`);
      if (folding.error !== undefined) return failedResult(folding.metric, folding.error);
      return safeResult(folding.metric, () => folding.fold.result());
    });
    return aggregateOf(metrics, this.overall.result(), this.input.suite);
  }
}

export interface StreamInput {
  readonly suite: Suite;
  readonly tasks: readonly MetricTask[];
  readonly epochs: number;
  readonly metrics?: readonly MetricRef[] | undefined;
  readonly registry?: MetricRegistry | undefined;
}
