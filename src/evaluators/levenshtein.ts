import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { boundedLevenshtein, codePoints, levenshteinDistance } from './edit-distance.ts';
import { binary, cannotJudge } from './result.ts';
import { expectedAsText, normalizeText, outputText } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.levenshtein;

/**
 * The full dynamic programme runs only up to this many cells (10,000 x 10,000 characters, about a second);
 * beyond it the banded algorithm runs when `max_distance` is set, and otherwise the evaluator
 * refuses rather than hang on a 10 MB output.
 */
export const LEVENSHTEIN_MAX_CELLS = 100_000_000;
const DEFAULT_THRESHOLD = 0.8;

/** Edit distance (code points) to the expected text, against `max_distance` and/or a normalised threshold. */
export const levenshtein: EvaluatorDefinition<typeof options> = {
  name: 'levenshtein',
  description: 'edit distance to the expected text within max_distance, or similarity above a threshold',
  options,
  create(opts) {
    const threshold = opts.threshold ?? (opts.max_distance === undefined ? DEFAULT_THRESHOLD : undefined);
    return evaluatorFrom('levenshtein', ({ task, output }) => {
      const expectedText = opts.expected ?? expectedAsText(task.expected);
      if (expectedText === undefined) return binary(true, 'no expected output');
      const a = codePoints(normalizeText(outputText(output)));
      const b = codePoints(normalizeText(expectedText));
      const longest = Math.max(a.length, b.length);
      const limits = { max_distance: opts.max_distance ?? null, threshold: threshold ?? null };
      let distance: number | undefined;
      if (a.length * b.length <= LEVENSHTEIN_MAX_CELLS) {
        distance = levenshteinDistance(a, b);
      } else if (
        opts.max_distance !== undefined &&
        (2 * opts.max_distance + 1) * longest <= LEVENSHTEIN_MAX_CELLS
      ) {
        distance = boundedLevenshtein(a, b, opts.max_distance);
        if (distance === undefined) {
          return binary(false, `edit distance is more than max_distance ${opts.max_distance}`, {
            ...limits,
            distance: null,
            lengths: [a.length, b.length],
          });
        }
      } else {
        return cannotJudge(
          `texts too long for an edit distance (${a.length} and ${b.length} characters); set a small max_distance`,
          { lengths: [a.length, b.length] },
        );
      }
      const similarity = longest === 0 ? 1 : 1 - distance / longest;
      const checks: string[] = [];
      let passed = true;
      if (opts.max_distance !== undefined) {
        const ok = distance <= opts.max_distance;
        passed &&= ok;
        checks.push(`distance ${distance} ${ok ? '<=' : '>'} max_distance ${opts.max_distance}`);
      }
      if (threshold !== undefined) {
        const ok = similarity >= threshold;
        passed &&= ok;
        checks.push(`similarity ${similarity.toFixed(3)} ${ok ? '>=' : '<'} threshold ${threshold}`);
      }
      return {
        score: similarity,
        passed,
        explanation: checks.join(', '),
        details: { ...limits, distance, similarity },
      };
    });
  },
};
