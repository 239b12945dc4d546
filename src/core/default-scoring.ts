import type { Scoring } from './suite.ts';

// Zod-free, so the CLI's start-up files (formats/load.ts) can use it without evaluating zod and
// every schema core/suite.ts pulls in (test/integration/startup-modules-cli.test.ts holds that).

/** The scoring a file gets when it says nothing: the one place these defaults are written. */
export const DEFAULT_SCORING = {
  method: 'weighted_average',
  pass_threshold: 0.75,
  weights: { functional: 0.6, rubric: 0.4 },
} as const;

/** A fresh copy of the default scoring (callers may not share the frozen constant's objects). */
export function defaultScoring(): Scoring {
  return { ...DEFAULT_SCORING, weights: { ...DEFAULT_SCORING.weights } };
}
