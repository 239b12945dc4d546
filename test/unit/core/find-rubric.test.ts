import { describe, expect, it } from 'vitest';
import { findRubric, type Rubric } from '../../../src/core/rubric.ts';

const levels = { 1: 'a', 2: 'b', 3: 'c', 4: 'd' };
const fromFile: Rubric = {
  id: 'rubric',
  source: '/suites/x/rubric.yaml',
  dimensions: [{ name: 'q', weight: 1, levels, examples: [] }],
};
const inline: Rubric = { id: 'style', dimensions: [{ name: 's', weight: 1, levels, examples: [] }] };

describe('findRubric', () => {
  it('finds a rubric by id or by the file a task spec names', () => {
    expect(findRubric([inline, fromFile], 'style')).toBe(inline);
    expect(findRubric([inline, fromFile], '/suites/x/rubric.yaml')).toBe(fromFile);
    expect(findRubric([inline, fromFile], 'rubric')).toBe(fromFile);
  });

  it('finds nothing for an unknown or absent reference', () => {
    expect(findRubric([inline, fromFile], '/elsewhere/rubric.yaml')).toBeUndefined();
    expect(findRubric([inline, fromFile], undefined)).toBeUndefined();
    expect(findRubric([], 'style')).toBeUndefined();
  });
});
