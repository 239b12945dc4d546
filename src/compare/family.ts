import { type AdjustMethod, adjustPValues } from '../stats/multiplicity.ts';
import type { PairedComparison } from '../stats/significance.ts';
import type { PairedMetric } from './types.ts';

/**
 * Multiplicity over the metrics of one candidate: each comparison reports the raw p of each
 * metric's own test and the p adjusted over all of them (Holm by default), and "significant"
 * uses the adjusted one. Metrics that are the same test — the same tasks and the same p, as
 * `accuracy` and `evaluator_score:X` with a single evaluator, or `cost` and `cost_per_task` with
 * one epoch — count once: duplicates would make the correction stricter for no reason.
 */
export function adjustFamily(
  tests: readonly { readonly name: string; readonly test: PairedComparison | null }[],
  options: { readonly adjust: AdjustMethod; readonly alpha: number },
): (PairedMetric | null)[] {
  const fingerprint = (t: PairedComparison) =>
    t.p_value === null ? null : `${t.test}|${t.tasks.join(',')}|${t.p_value.toPrecision(12)}`;
  const firstOf = new Map<string, number>();
  const members: number[] = [];
  const family: (number | null)[] = [];
  for (const { test } of tests) {
    const key = test === null ? null : fingerprint(test);
    const seen = key === null ? undefined : firstOf.get(key);
    if (test === null || key === null) members.push(-1);
    else if (seen !== undefined) members.push(seen);
    else {
      firstOf.set(key, family.length);
      members.push(family.length);
      family.push(test.p_value);
    }
  }
  const adjusted = adjustPValues(family, options.adjust);
  const leaders = new Map<number, string>();
  return tests.map(({ name, test }, i) => {
    if (test === null) return null;
    const member = members[i] ?? -1;
    const p = member < 0 ? null : (adjusted[member] ?? null);
    const leader = leaders.get(member);
    if (member >= 0 && leader === undefined) leaders.set(member, name);
    return {
      ...test,
      p_adjusted: p,
      adjust: options.adjust,
      significant: p !== null && p < options.alpha,
      significant_unadjusted: test.p_value !== null && test.p_value < options.alpha,
      ...(leader === undefined ? {} : { same_test_as: leader }),
    };
  });
}
