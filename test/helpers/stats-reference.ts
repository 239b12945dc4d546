import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The independent reference numbers of test/fixtures/stats-reference/reference.json (computed by
 * reference.py with scipy and statsmodels; the tests never run Python).
 */
export type TrialValues = Record<string, number[]>;

export interface ReferenceCase {
  readonly description: string;
  readonly epochs?: number;
  readonly clusters?: Record<string, string>;
  readonly metrics?: Record<string, { a: TrialValues; b: TrialValues }>;
  readonly versions?: TrialValues[];
  // biome-ignore lint/suspicious/noExplicitAny: reference numbers are read field by field in tests
  readonly expected: any;
}

export const REFERENCE_DIR = fileURLToPath(new URL('../fixtures/stats-reference/', import.meta.url));

export const reference = JSON.parse(readFileSync(`${REFERENCE_DIR}reference.json`, 'utf8')) as {
  readonly cases: Record<string, ReferenceCase>;
};

export function referenceCase(name: string): ReferenceCase {
  const found = reference.cases[name];
  if (found === undefined) throw new Error(`no reference case ${name}`);
  return found;
}

/** task -> mean over its trials: what a metric's per-task value is. */
export function taskMeans(values: TrialValues): Map<string, number> {
  return new Map(
    Object.entries(values).map(([task, xs]) => [task, xs.reduce((s, x) => s + x, 0) / xs.length]),
  );
}

/** Relative closeness for numbers of any size: |a - b| <= tol · max(|a|, |b|, floor). */
export function close(
  actual: number | null | undefined,
  expected: number,
  tol = 1e-9,
  floor = 1e-12,
): boolean {
  if (actual === null || actual === undefined) return false;
  return Math.abs(actual - expected) <= tol * Math.max(Math.abs(actual), Math.abs(expected), floor);
}
