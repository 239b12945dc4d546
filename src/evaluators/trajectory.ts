import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.trajectory;

/** Above this many cells the LCS is not computed and a greedy in-order match stands in for it. */
const LCS_MAX_CELLS = 4_000_000;

/** Length of the longest common subsequence (O(n*m), small for tool sequences). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length * b.length > LCS_MAX_CELLS) return greedySubsequence(a, b);
  const row = new Int32Array(b.length + 1);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** How many of `needle`, in order, can be found in `haystack` (exact for "is a subsequence"). */
function greedySubsequence(needle: readonly string[], haystack: readonly string[]): number {
  let found = 0;
  for (const item of haystack) if (found < needle.length && needle[found] === item) found++;
  return found;
}

function multisetOverlap(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  let common = 0;
  for (const y of b) {
    const left = counts.get(y) ?? 0;
    if (left > 0) {
      common++;
      counts.set(y, left - 1);
    }
  }
  return common;
}

/**
 * The tool-name sequence against the expected one. strict: equal sequences, score LCS / longer
 * length. unordered: the same multiset, score overlap / longer length. subset: the expected
 * sequence is a subsequence of the actual one, score LCS / expected length. superset: the actual
 * sequence is a subsequence of the expected one, score LCS / actual length.
 */
export const trajectory: EvaluatorDefinition<typeof options> = {
  name: 'trajectory',
  description: 'the sequence of tool calls matches the expected one (strict, unordered, subset, superset)',
  options,
  create(opts) {
    const expected = opts.expected;
    return evaluatorFrom('trajectory', ({ output }) => {
      const actual = output.tool_calls.map((call) => call.tool_name);
      const longest = Math.max(expected.length, actual.length);
      let score: number;
      let passed: boolean;
      switch (opts.mode) {
        case 'strict':
          passed = actual.length === expected.length && actual.every((name, i) => name === expected[i]);
          score = passed ? 1 : lcsLength(expected, actual) / longest;
          break;
        case 'unordered': {
          const overlap = multisetOverlap(expected, actual);
          passed = overlap === expected.length && overlap === actual.length;
          score = overlap / longest;
          break;
        }
        case 'subset':
          passed = greedySubsequence(expected, actual) === expected.length;
          score = passed ? 1 : lcsLength(expected, actual) / expected.length;
          break;
        case 'superset':
          passed = greedySubsequence(actual, expected) === actual.length;
          score = passed ? 1 : lcsLength(actual, expected) / actual.length;
          break;
      }
      const shown = (list: readonly string[]) => (list.length === 0 ? '(none)' : list.join(' → '));
      return {
        score,
        passed,
        explanation: `${passed ? 'matches' : 'does not match'} (${opts.mode}): expected ${shown(expected)}, got ${shown(actual)}`,
        details: { expected, actual, mode: opts.mode },
      };
    });
  },
};
