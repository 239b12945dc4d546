import type { Experiment } from '../core/experiment.ts';

function versionLabel(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/**
 * Column headings that tell the experiments apart, shortest first: `v0.4.0` when they share a
 * harness name, `name@version` when they do not, the id (8 characters, or whole) otherwise.
 */
export function experimentLabels(experiments: readonly Pick<Experiment, 'id' | 'harness'>[]): string[] {
  const unique = (labels: string[]) => new Set(labels).size === labels.length;
  const names = new Set(experiments.map((e) => e.harness.name));
  const byVersion = experiments.map((e) => versionLabel(e.harness.version));
  if (names.size === 1 && unique(byVersion)) return byVersion;
  const byName = experiments.map((e) => `${e.harness.name}@${e.harness.version}`);
  if (unique(byName)) return byName;
  const short = experiments.map((e) => e.id.slice(0, 8));
  return unique(short) ? short : experiments.map((e) => e.id);
}

/**
 * The seed's row order (seed 004's comparison table), then the usual outcome metrics; any other
 * metric follows in the order the experiments list it.
 */
export const PREFERRED_METRIC_ORDER = [
  'prompts_unplanned',
  'hitl_unplanned',
  'first_pass_approval_rate',
  'cost_per_task',
  'human_time_min',
  'overall_score',
  'success_rate',
  'accuracy',
] as const;

export function orderMetricNames(names: Iterable<string>): string[] {
  const all = [...new Set(names)];
  const preferred: readonly string[] = PREFERRED_METRIC_ORDER;
  const first = preferred.filter((n) => all.includes(n));
  return [...first, ...all.filter((n) => !preferred.includes(n))];
}
