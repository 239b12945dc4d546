import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCORING, ScoringSchema, SuiteSchema } from '../../../src/core/suite.ts';
import { loadSuite } from '../../../src/formats/load.ts';

const at = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

describe('default scoring: one definition', () => {
  it('an empty scoring block and a suite without one get DEFAULT_SCORING', () => {
    expect(ScoringSchema.parse({})).toEqual(DEFAULT_SCORING);
    expect(ScoringSchema.parse({ weights: {} }).weights).toEqual(DEFAULT_SCORING.weights);
    expect(SuiteSchema.parse({ id: 's', tasks: [] }).scoring).toEqual(DEFAULT_SCORING);
  });

  it('two suites never share one scoring object', () => {
    const a = SuiteSchema.parse({ id: 'a', tasks: [] });
    const b = SuiteSchema.parse({ id: 'b', tasks: [] });
    a.scoring.weights.rubric = 1;
    expect(b.scoring.weights.rubric).toBe(DEFAULT_SCORING.weights.rubric);
  });

  it.each([
    ['a v0 dataset', 'examples/hello-world/datasets/hello-world-v0.jsonl'],
    ['a benchmark', 'examples/hello-world/benchmark.yaml'],
    ['a task spec', 'test/fixtures/seeds/customer-support.yaml'],
  ])('%s that says nothing of scoring gets the same defaults', async (_kind, file) => {
    const suite = await loadSuite(at(file), { checkAgent: false });
    expect(suite.scoring).toEqual(DEFAULT_SCORING);
  });
});
