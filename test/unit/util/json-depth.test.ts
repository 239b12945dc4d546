import { describe, expect, it } from 'vitest';
import { dataDepth, isJsonData, MAX_DATA_DEPTH } from '../../../src/util/json-depth.ts';

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('dataDepth', () => {
  it('counts nesting levels without recursion', () => {
    expect(dataDepth('x')).toBe(0);
    expect(dataDepth([])).toBe(1);
    expect(dataDepth({ a: [{ b: 1 }] })).toBe(3);
    expect(dataDepth(nested(MAX_DATA_DEPTH))).toBe(MAX_DATA_DEPTH);
  });

  it('stops counting just past the limit, even on data far deeper than the stack', () => {
    expect(dataDepth(nested(200_000))).toBe(MAX_DATA_DEPTH + 1);
    expect(dataDepth(nested(10), 3)).toBe(4);
  });

  it('measures a cycle as infinitely deep and a shared (acyclic) reference as data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(dataDepth(cyclic)).toBe(Number.POSITIVE_INFINITY);
    const shared = { leaf: 1 };
    expect(dataDepth({ a: shared, b: shared })).toBe(2);
  });
});

describe('isJsonData', () => {
  it('accepts JSON values and refuses what JSON cannot hold', () => {
    expect(isJsonData({ a: [1, 'x', null, true, { b: [] }] })).toBe(true);
    expect(isJsonData(nested(100_000))).toBe(true);
    for (const bad of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      undefined,
      () => 1,
      new Date(),
      1n,
      [Symbol('s')],
    ])
      expect(isJsonData(bad)).toBe(false);
  });
});
