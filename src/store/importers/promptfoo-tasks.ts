import { createHash } from 'node:crypto';
import type { PromptfooTestCase } from './promptfoo-schema.ts';
import type { UnmappedFields } from './unmapped.ts';

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const varsHash = (test: PromptfooTestCase) =>
  createHash('sha256')
    .update(canonical(test.vars ?? {}))
    .digest('hex')
    .slice(0, 8);

/** `topic=bananas lang=fr#1a2b3c4d`: readable, and the same for the same vars in any eval. */
function fromVars(test: PromptfooTestCase): string {
  const text = Object.entries(test.vars ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : canonical(v)}`)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const readable = text.length > 48 ? `${text.slice(0, 47)}…` : text;
  return `${readable === '' ? 'test' : readable}#${varsHash(test)}`;
}

/**
 * The task id of each test case, stable across evals so that two evals of the same tests pair in
 * `compare`: the test's `description`, else its vars (a readable part and a hash). promptfoo's
 * `testIdx` is no identity (a repeat gets a new one). A description shared by tests with different
 * vars would merge distinct tests, so those get the hash of their vars too.
 */
export function taskIds(
  tests: readonly PromptfooTestCase[],
  unmapped: UnmappedFields,
): (test: PromptfooTestCase) => string {
  const varsByDescription = new Map<string, Set<string>>();
  for (const test of tests) {
    if (test.description === undefined || test.description.trim() === '') continue;
    const set = varsByDescription.get(test.description) ?? new Set<string>();
    set.add(varsHash(test));
    varsByDescription.set(test.description, set);
  }
  const shared = [...varsByDescription].filter(([, hashes]) => hashes.size > 1);
  if (shared.length > 0)
    unmapped.note(
      'testCase.description',
      'shared by tests with different vars: those task ids add a hash of the vars',
      shared.length,
    );
  const ambiguous = new Set(shared.map(([description]) => description));
  return (test) => {
    const description = test.description?.trim();
    if (description === undefined || description === '') return fromVars(test);
    return ambiguous.has(test.description!) ? `${description}#${varsHash(test)}` : description;
  };
}
