import { isEnvironmentError, isExcludedError, isInfraError, recordErrorKind } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import { mean } from '../stats/descriptive.ts';
import { passAtK, passHatK } from '../stats/pass-at-k.ts';
import { meanOverTasks, type TrialValue } from './aggregate.ts';
import { type DetailsFold, defineBuiltin, meanMetric } from './define.ts';
import { Tally } from './fold.ts';

/**
 * Metrics of trial outcomes and scores. A trial passes when `outcome === 'pass'` and errored when
 * `outcome === 'error'`. Pending trials (awaiting a human or judge grade) have no outcome yet and
 * environment errors (a check could not run) and infrastructure errors (an imported trial whose
 * container or sandbox failed) say nothing about the harness: all are left out of rates and scores
 * and counted (`details.pending`, `details.environment_errors`, `details.infra_errors`); while trials are
 * pending a rate has no interval, only the range it can end in (see `shownWithPending`).
 *
 * Benchmarks disagree on errored trials, so both conventions are reported: `success_rate` counts
 * them as failures, `success_rate_completed` leaves them out (completed = passed or failed).
 */

const unit = [0, 1] as const;

/** Errored trials by error kind (environment and infrastructure errors left out). */
const errorsByKind = (): DetailsFold => {
  const kinds: Record<string, number> = {};
  return {
    add(r) {
      if (r.outcome !== 'error' || isExcludedError(r)) return;
      const kind = recordErrorKind(r) ?? 'unknown';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    },
    result: () => ({ errors_by_kind: { ...kinds } }),
  };
};

/** `errors_by_kind` and the environment and infrastructure errors an error rate leaves out. */
const errorsAndExcluded = (): DetailsFold => {
  const byKind = errorsByKind();
  let environment = 0;
  let infra = 0;
  return {
    add(r) {
      byKind.add(r);
      if (isEnvironmentError(r)) environment++;
      if (isInfraError(r)) infra++;
    },
    result: () => ({ ...byKind.result(), environment_errors: environment, infra_errors: infra }),
  };
};

export const successRate = meanMetric('success_rate', {
  unit: 'ratio',
  bounds: unit,
  excludePending: true,
  trialValue: (record) => (record.outcome === 'pass' ? 1 : 0),
  details: errorsByKind,
});

export const successRateCompleted = meanMetric('success_rate_completed', {
  unit: 'ratio',
  bounds: unit,
  excludePending: true,
  trialValue: (record) => (record.outcome === 'error' ? null : record.outcome === 'pass' ? 1 : 0),
  skippedAs: 'errors',
});

/** Pending trials ran without an error (they wait for a grade), so they count as not errored. */
export const errorRate = meanMetric('error_rate', {
  unit: 'ratio',
  bounds: unit,
  excludePending: false,
  trialValue: (record) => (isExcludedError(record) ? null : record.outcome === 'error' ? 1 : 0),
  details: errorsAndExcluded,
});

/**
 * A trial's score: the mean of its evaluators' scores; without evaluator results, its overall
 * score; failing that 1 for a pass and 0 otherwise. An errored trial that was never evaluated
 * scores 0, as an errored output does with every evaluator.
 */
export function trialScore(record: RunRecord): number {
  if (record.evaluations.length > 0) return mean(record.evaluations.map((e) => e.score)) ?? 0;
  if (record.outcome === 'error') return 0;
  const overall = record.scores.overall;
  if (overall !== undefined) return overall;
  return record.outcome === 'pass' ? 1 : 0;
}

export const accuracy = meanMetric('accuracy', {
  unit: 'ratio',
  bounds: unit,
  excludePending: true,
  trialValue: trialScore,
});

export const evaluatorScore = meanMetric('evaluator_score', {
  unit: 'score',
  bounds: unit,
  excludePending: true,
  label: (options) => `evaluator_score:${options.evaluator}`,
  // A trial scored twice by the same evaluator (two labels) counts its mean once.
  trialValue: (record, options) =>
    mean(record.evaluations.filter((e) => e.evaluator === options.evaluator).map((e) => e.score)),
  skippedAs: 'trials_without_evaluator',
});

type Estimator = (n: number, c: number, k: number) => number | null;

/** Per task: n decided attempts and c passes, one record at a time; pending and excluded counted. */
class Attempts {
  readonly tried = new Tally();
  readonly passed = new Tally();
  records = 0;
  pending = 0;
  environment = 0;
  infra = 0;

  add(record: RunRecord): void {
    this.records++;
    if (record.outcome === 'pending') this.pending++;
    else if (isEnvironmentError(record)) this.environment++;
    else if (isInfraError(record)) this.infra++;
    else {
      this.tried.add(record.task_id);
      if (record.outcome === 'pass') this.passed.add(record.task_id);
    }
  }

  /** Per task -> the estimator's value; tasks with n < k are skipped (`tooFew`). */
  estimates(k: number, estimator: Estimator): { trials: TrialValue[]; tooFew: number } {
    const trials: TrialValue[] = [];
    let tooFew = 0;
    for (const [task, n] of this.tried.counts) {
      const value = estimator(n, this.passed.get(task), k);
      if (value === null) tooFew++;
      else trials.push({ task, value });
    }
    return { trials, tooFew };
  }
}

function estimatorMetric(name: 'pass_at_k' | 'pass_hat_k', symbol: string, estimator: Estimator) {
  return defineBuiltin(name, {
    unit: 'ratio',
    bounds: unit,
    label: (options) => `pass${symbol}${options.k}`,
    fold(context, shape, options) {
      const attempts = new Attempts();
      return {
        add: (record) => attempts.add(record),
        result() {
          const { pending, environment, infra } = attempts;
          const { trials, tooFew } = attempts.estimates(options.k, estimator);
          // One value per task already: the SE below is over tasks, as it must be.
          const result = meanOverTasks(context, trials, shape, {
            k: options.k,
            environment_errors: environment,
            infra_errors: infra,
            tasks_with_fewer_than_k_trials: tooFew,
          });
          if (pending === 0) return { ...result, details: { ...result.details, pending: 0 } };
          // Which way the pending attempts go changes c for their task: no interval, as for a rate.
          return {
            ...result,
            stderr: null,
            ci95: null,
            details: {
              ...result.details,
              decided: attempts.records - pending - environment - infra,
              pending,
              interval_omitted: 'trials are pending: an interval over the decided ones alone would be biased',
            },
          };
        },
      };
    },
    perTask(input, options) {
      const attempts = new Attempts();
      for (const record of input.records) attempts.add(record);
      return new Map(attempts.estimates(options.k, estimator).trials.map((t) => [t.task, t.value]));
    },
  });
}

/** Unbiased pass@k (Chen et al. 2021) averaged over tasks. */
export const passAtKMetric = estimatorMetric('pass_at_k', '@', passAtK);
/** pass^k: the chance that k attempts all pass, averaged over tasks. */
export const passHatKMetric = estimatorMetric('pass_hat_k', '^', passHatK);
