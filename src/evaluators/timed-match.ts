import { type MatchJob, type MatchOutcome, matchPool } from './match-pool.ts';

/** One match (a regex, a JSONPath filter query, a schema with patterns) is stopped after this. */
export const MATCH_TIME_LIMIT_MS = 2000;
/**
 * All the matches of one trial together get this long: a trial with ten slow patterns costs at
 * most this, not ten time limits. What is left when the budget is spent is not judged.
 */
export const TRIAL_MATCH_BUDGET_MS = 6000;

export type TimedMatchOutcome = MatchOutcome | { readonly kind: 'budget_spent'; readonly budgetMs: number };

/**
 * What a trial has spent on matching, and what its running matches may still spend (each one
 * reserves its time limit, so matches running side by side cannot overrun the budget together).
 */
interface TrialBudget {
  spent: number;
  reserved: number;
  readonly waiting: (() => void)[];
}

/**
 * Budgets per trial, keyed by the trial's AgentOutput object — every evaluator of a trial receives
 * the same one — so that no evaluator contract has to carry the budget.
 */
const budgets = new WeakMap<object, TrialBudget>();

/** Runs `job` on the match pool within the per-match limit and what is left of the trial's budget. */
export async function timedMatch(
  job: MatchJob,
  trial: { readonly output: object; readonly signal?: AbortSignal },
): Promise<TimedMatchOutcome> {
  let budget = budgets.get(trial.output);
  if (budget === undefined) {
    budget = { spent: 0, reserved: 0, waiting: [] };
    budgets.set(trial.output, budget);
  }
  const available = (b: TrialBudget) => TRIAL_MATCH_BUDGET_MS - b.spent - b.reserved;
  while (available(budget) <= 0) {
    if (budget.reserved === 0) return { kind: 'budget_spent', budgetMs: TRIAL_MATCH_BUDGET_MS };
    await new Promise<void>((wake) => budget?.waiting.push(wake));
  }
  const limit = Math.min(MATCH_TIME_LIMIT_MS, available(budget));
  budget.reserved += limit;
  try {
    const { outcome, ms } = await matchPool.run(job, limit, trial.signal);
    // A match stopped at its limit spent all of it (a timer may fire a hair early; the rest of the
    // budget must not be a sliver that starts one more doomed match).
    budget.spent += outcome.kind === 'timeout' ? limit : Math.min(ms, limit);
    return outcome;
  } finally {
    budget.reserved -= limit;
    for (const wake of budget.waiting.splice(0)) wake();
  }
}

/** Why a match gave no answer, for an evaluator's explanation. */
export function unansweredMatch(outcome: Exclude<TimedMatchOutcome, { kind: 'done' }>, what: string): string {
  switch (outcome.kind) {
    case 'timeout':
      return `${what} took longer than ${outcome.limitMs / 1000} s and was stopped`;
    case 'budget_spent':
      return `${what} was not run: the trial's matching budget of ${outcome.budgetMs / 1000} s is spent`;
    case 'error':
      return `${what} failed: ${outcome.message}`;
  }
}
