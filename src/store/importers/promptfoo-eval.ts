import type { PromptfooConfig, PromptfooResult } from './promptfoo-schema.ts';

/** One promptfoo eval as read from either source (a results JSON, or a row of the database). */
export interface PromptfooEval {
  readonly id: string;
  /** ISO time the eval was created, when the source says. */
  readonly createdAt?: string;
  readonly author?: string;
  readonly config: PromptfooConfig;
  /** Results in (promptIdx, testIdx) order; `timestamp` when the row has its own time. */
  readonly results: readonly { readonly result: PromptfooResult; readonly timestamp?: string }[];
  /** The results' format: 2 or 3 (a summary), 4 (`eval_results` rows). */
  readonly version: number;
  readonly promptfooVersion?: string;
}

/**
 * A promptfoo time as ISO: evals keep milliseconds since the epoch (`Eval.createdAt`), rows that
 * took the column default keep SQLite's `CURRENT_TIMESTAMP` text (UTC, `YYYY-MM-DD HH:MM:SS`).
 */
export function promptfooTime(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = Number(value);
    // Seconds would be a date in 1970 read as milliseconds.
    const ms = n < 1e11 ? n * 1000 : n;
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
