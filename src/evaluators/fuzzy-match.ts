import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { codePoints } from './edit-distance.ts';
import { binary } from './result.ts';
import { expectedAsText, normalizeText, outputText } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.fuzzy_match;

/** Whitespace runs become one space so that line wrapping does not count as a difference. */
function prepare(text: string, ignoreCase: boolean): Uint32Array {
  return codePoints(normalizeText(text, { trim: true, ignoreCase }).replace(/\s+/gu, ' '));
}

/** Two code points as one number key (21 bits each), cheaper than building strings. */
const bigramKey = (first: number, second: number) => first * 0x200000 + second;

/**
 * Sørensen–Dice coefficient on character bigrams (code points, counted as a multiset):
 * 2 * |common bigrams| / (|bigrams a| + |bigrams b|). Linear time, so large outputs are cheap.
 * Texts shorter than two characters compare by equality.
 */
export function diceSimilarity(a: Uint32Array, b: Uint32Array): number {
  if (a.length < 2 || b.length < 2) return a.length === b.length && a.every((c, i) => c === b[i]) ? 1 : 0;
  const counts = new Map<number, number>();
  for (let i = 0; i + 1 < a.length; i++) {
    const key = bigramKey(a[i]!, a[i + 1]!);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const key = bigramKey(b[i]!, b[i + 1]!);
    const left = counts.get(key) ?? 0;
    if (left > 0) {
      common++;
      counts.set(key, left - 1);
    }
  }
  return (2 * common) / (a.length - 1 + b.length - 1);
}

/** Text similarity (Sørensen–Dice on bigrams) at or above a threshold. */
export const fuzzyMatch: EvaluatorDefinition<typeof options> = {
  name: 'fuzzy_match',
  description: 'output is similar to the expected text (Sørensen–Dice on bigrams) above a threshold',
  options,
  create(opts) {
    return evaluatorFrom('fuzzy_match', ({ task, output }) => {
      const expected = opts.expected ?? expectedAsText(task.expected);
      if (expected === undefined) return binary(true, 'no expected output');
      const similarity = diceSimilarity(
        prepare(outputText(output), opts.ignore_case),
        prepare(expected, opts.ignore_case),
      );
      const passed = similarity >= opts.threshold;
      const shown = similarity.toFixed(3);
      return {
        score: similarity,
        passed,
        explanation: `similarity ${shown} ${passed ? '>=' : '<'} threshold ${opts.threshold} (Sørensen–Dice on bigrams)`,
        details: { similarity, threshold: opts.threshold, algorithm: 'sorensen-dice-bigrams' },
      };
    });
  },
};
