import type { ComparedExperiment, Comparison } from '../../compare/types.ts';
import { adjustLabel, scopeLine } from './format.ts';

/** What heads every rendering of a comparison, computed once; each renderer words and escapes it. */
export interface ComparisonHeading {
  readonly baseline: ComparedExperiment;
  readonly candidates: readonly ComparedExperiment[];
  /** The column labels, baseline first. */
  readonly labels: readonly string[];
  /** The harness name when every experiment has the same one (the labels are then its versions). */
  readonly harness: string | undefined;
  readonly suites: readonly string[];
  /** Per candidate: the tasks its paired tests cover ("paired over 5 of 6 tasks (1 only in A)"). */
  readonly scopes: readonly { readonly candidate: string; readonly scope: string }[];
  readonly alpha: number;
  /** How p-values are adjusted over the metrics ("Holm", "BH"); undefined when they are not. */
  readonly adjustment: string | undefined;
  readonly warnings: readonly string[];
}

/** The heading facts of a comparison; undefined when it has no experiment. */
export function comparisonHeading(
  comparison: Comparison,
  label: (text: string) => string = (text) => text,
): ComparisonHeading | undefined {
  const [baseline, ...candidates] = comparison.experiments;
  if (baseline === undefined) return undefined;
  const names = new Set(comparison.experiments.map((e) => e.harness.name));
  return {
    baseline,
    candidates,
    labels: comparison.experiments.map((e) => e.label),
    harness: names.size === 1 ? baseline.harness.name : undefined,
    suites: [...new Set(comparison.experiments.map((e) => e.suite.id))],
    scopes: comparison.pairs.map((pair, i) => {
      const candidate = candidates[i]?.label ?? '';
      return { candidate, scope: scopeLine(pair, label(baseline.label), label(candidate)) };
    }),
    alpha: comparison.alpha,
    adjustment: comparison.adjust === 'none' ? undefined : adjustLabel(comparison),
    warnings: comparison.warnings,
  };
}
