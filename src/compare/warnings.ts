import type { Experiment } from '../core/experiment.ts';
import type { PairComparison } from './types.ts';

/**
 * What a reader must know before trusting the numbers: different suites or suite versions,
 * unfinished experiments, partial task overlap (the statistics are over the shared tasks only),
 * few shared tasks (exact and t methods, wide intervals), flaky tasks left out.
 */
export function warningsFor(
  experiments: readonly Experiment[],
  pairs: readonly PairComparison[],
  smallSample: number,
): string[] {
  const warnings: string[] = [];
  const [a] = experiments;
  if (a === undefined) return warnings;
  for (const e of experiments.slice(1)) {
    if (e.suite.id !== a.suite.id) {
      warnings.push(
        `${e.id} ran suite "${e.suite.id}", ${a.id} ran "${a.suite.id}": the metrics may not be comparable`,
      );
    } else if (a.suite.hash && e.suite.hash && a.suite.hash !== e.suite.hash) {
      warnings.push(
        `${e.id} ran a different version of suite "${e.suite.id}" (hash ${e.suite.hash.slice(0, 12)} vs ${a.suite.hash.slice(0, 12)})`,
      );
    }
  }
  for (const e of experiments) {
    if (e.status !== 'completed')
      warnings.push(`${e.id} is ${e.status}: its metrics cover only the trials that finished`);
  }
  for (const pair of pairs) {
    const who = `${pair.experiment_id} vs ${pair.baseline_id}`;
    if (pair.shared_tasks === 0) {
      warnings.push(`${pair.experiment_id} and ${pair.baseline_id} share no task: no paired statistics`);
      continue;
    }
    if (pair.only_in_baseline.length + pair.only_in_candidate.length > 0) {
      warnings.push(
        `${who}: paired over ${pair.shared_tasks} of ${pair.total_tasks} tasks ` +
          `(${pair.only_in_baseline.length} only in the baseline, ${pair.only_in_candidate.length} only in the candidate): ` +
          'every change, interval, p-value and gate is over the shared tasks',
      );
    }
    if (pair.small_sample) {
      warnings.push(
        `${who}: fewer than ${smallSample} tasks per test: p-values come from exact tests (McNemar, sign test) ` +
          'or the t distribution with few degrees of freedom, and intervals are wide; a non-significant result ' +
          'says little (see the MDE)',
      );
    }
    if (pair.excluded.length > 0) {
      warnings.push(`${who}: ${pair.excluded.length} flaky tasks left out (${pair.excluded.join(', ')})`);
    }
  }
  return warnings;
}
