import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstFailure } from '../../../src/util/first-failure.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/console/${name}`, import.meta.url), 'utf8');

describe('firstFailure', () => {
  it('reads the first `not ok` of node --test TAP with the first lines of its error', () => {
    expect(firstFailure(fixture('node-test.tap'))).toBe(
      'adds small numbers: Expected values to be strictly equal: 3 !== 2',
    );
  });

  it('reads the spec reporter, skipping the "failing tests:" summary', () => {
    expect(firstFailure(fixture('node-test.spec.txt'))).toBe(
      'adds small numbers: Expected values to be strictly equal: 3 !== 2',
    );
  });

  it('takes an inline TAP error and a name-less not ok', () => {
    expect(firstFailure("TAP version 13\nnot ok 1 - loads\n  ---\n  error: 'not implemented'\n  ...\n")).toBe(
      'loads: not implemented',
    );
    expect(firstFailure('not ok 3\n')).toBe('test 3');
  });

  it('falls back to the first line that says error or fail, and to nothing', () => {
    expect(firstFailure('building\nsrc/a.ts(3,1): error TS2304: Cannot find name x\nmore')).toBe(
      'src/a.ts(3,1): error TS2304: Cannot find name x',
    );
    expect(firstFailure('all good\n')).toBeUndefined();
    expect(firstFailure(`Error: ${'x'.repeat(1000)}`)?.length).toBe(300);
  });
});
