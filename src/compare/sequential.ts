import { confidenceSequence } from '../stats/confidence-sequence.ts';
import type { SequentialResult } from './types.ts';

/** Units whose per-task values lie in [0, 1], so that a difference lies in [-1, 1]. */
const BOUNDED_UNITS = new Set(['ratio', 'score']);

export function isBounded(unit: string | undefined): boolean {
  return unit !== undefined && BOUNDED_UNITS.has(unit);
}

/**
 * The sequential verdict on per-task differences in [-1, 1], taken in task order as if the tasks
 * had arrived one by one: an always-valid confidence sequence (a betting CS; see
 * `stats/confidence-sequence.ts`) may be looked at after every task. It stops at the first task
 * after which it excludes 0 (`different`) or lies inside ±margin (`equivalent`); either verdict is
 * wrong with probability at most α, however often one looked. Null with no shared task.
 */
export function sequentialVerdict(
  differences: readonly number[],
  options: { readonly alpha: number; readonly margin: number },
): SequentialResult | null {
  if (differences.length === 0) return null;
  const steps = confidenceSequence(
    differences.map((d) => Math.min(1, Math.max(-1, d))),
    { alpha: options.alpha, lower: -1, upper: 1, grid: 2001 },
  );
  let decision: SequentialResult['decision'] = 'undecided';
  let decidedAfter: number | null = null;
  for (const step of steps) {
    const [lo, hi] = step.interval;
    if (lo > 0 || hi < 0) decision = 'different';
    else if (lo > -options.margin && hi < options.margin) decision = 'equivalent';
    if (decision !== 'undecided') {
      decidedAfter = step.t;
      break;
    }
  }
  const last = steps.at(-1);
  return {
    method: 'betting_confidence_sequence',
    alpha: options.alpha,
    margin: options.margin,
    decision,
    decided_after: decidedAfter,
    tasks: differences.length,
    interval: last ? last.interval : [-1, 1],
  };
}
