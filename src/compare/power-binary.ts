import type { Experiment } from '../core/experiment.ts';
import { mean, pearsonCorrelation, variance } from '../stats/descriptive.ts';
import { mcnemarPower, mcnemarTasksNeeded } from '../stats/mcnemar-power.ts';
import type { PowerReport, PowerRequest } from './power-plan.ts';

/**
 * Planning for one pass/fail verdict per task, where McNemar's exact test decides: the joint
 * distribution of the two verdicts follows from the pass rates p_A, p_B and their correlation ρ
 * (the phi coefficient): P(both pass) = p_A p_B + ρ √(p_A(1-p_A) p_B(1-p_B)), so
 * p10 = p_A - P(both), p01 = p_B - P(both); the exact power of the test at n tasks is then
 * computed by enumeration (`mcnemarPower`).
 */
export function discordance(pA: number, pB: number, rho: number): { p10: number; p01: number } {
  const independent = pA * pB;
  const spread = Math.sqrt(pA * (1 - pA) * pB * (1 - pB));
  // Any ρ beyond what the margins allow is clamped to the feasible joint distribution.
  const both = Math.min(Math.min(pA, pB), Math.max(Math.max(0, pA + pB - 1), independent + rho * spread));
  return { p10: Math.max(0, pA - both), p01: Math.max(0, pB - both) };
}

/** The candidate rate for an effect: an improvement when there is room above, else a drop. */
function candidateRate(pA: number, effect: number): number {
  return pA + effect <= 1 ? pA + effect : pA - effect;
}

function mde(pA: number, rho: number, tasks: number, alpha: number, power: number): number | null {
  const room = Math.max(1 - pA, pA);
  const at = (delta: number) =>
    mcnemarPower({ tasks, alpha, ...discordance(pA, candidateRate(pA, delta), rho) });
  if (!(room > 0) || at(room) < power) return null;
  let lo = 0;
  let hi = room;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < power) lo = mid;
    else hi = mid;
  }
  return hi;
}

export function planBinary(
  baseline: Experiment,
  perTask: ReadonlyMap<string, readonly number[]>,
  options: PowerRequest & {
    readonly metric: string;
    readonly epochs: number;
    readonly correlation?: number | undefined;
    readonly from?: Experiment | undefined;
    readonly fromTasks?: ReadonlyMap<string, readonly number[]> | undefined;
  },
): PowerReport {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const verdicts = [...perTask.values()].map((v) => v[0] ?? 0);
  const pA = mean(verdicts) ?? 0;
  const notes = [
    "one pass/fail verdict per task: planned with the exact power of McNemar's test (no normal approximation)",
  ];
  let rho = options.correlation ?? 0;
  let source: PowerReport['correlation_source'] = options.correlation === undefined ? 'assumed' : 'given';
  if (options.fromTasks !== undefined) {
    const shared = [...perTask.keys()].filter((t) => options.fromTasks?.has(t));
    const observed = pearsonCorrelation(
      shared.map((t) => perTask.get(t)?.[0] ?? 0),
      shared.map((t) => options.fromTasks?.get(t)?.[0] ?? 0),
    );
    if (observed === null)
      notes.push('the verdicts do not vary in one of the runs: correlation unknown, 0 assumed');
    rho = observed ?? 0;
    source = observed === null ? 'assumed' : 'observed';
  } else if (options.correlation === undefined) {
    notes.push(
      "assumes the two versions' verdicts are independent (ρ = 0, conservative; pass --correlation or --from)",
    );
  }
  const effect = options.effect;
  const pB = effect === undefined ? pA : candidateRate(pA, effect);
  const { p10, p01 } = discordance(pA, pB, rho);
  const tasks =
    options.tasks ??
    (effect === undefined ? perTask.size : (mcnemarTasksNeeded({ p10, p01, alpha, power }) ?? null));
  if (effect !== undefined && options.tasks === undefined && tasks === null)
    notes.push(`more than 20,000 tasks would be needed to detect ${effect}`);
  const d = p01 - p10;
  return {
    metric: options.metric,
    source: options.from ? 'pair' : 'baseline',
    method: 'mcnemar_exact',
    baseline_id: baseline.id,
    ...(options.from ? { from_id: options.from.id } : {}),
    baseline_variance: { between: variance(verdicts) ?? 0, within: 0, tasks: perTask.size, epochs: 1 },
    paired_variance: { between: p10 + p01 - d * d, within: 0 },
    correlation: rho,
    correlation_source: source,
    binary: { baseline_rate: pA, p10, p01 },
    alpha,
    power,
    effect: effect ?? null,
    tasks_requested: options.tasks ?? null,
    plan: {
      tasks,
      epochs: 1,
      minimum_detectable_effect: tasks === null ? null : mde(pA, rho, tasks, alpha, power),
      epochs_needed: null,
    },
    notes,
  };
}
