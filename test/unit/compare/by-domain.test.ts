import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import { experimentOf } from '../../helpers/comparison.ts';

/** A: product-dev scores 0.2..0.8 and support verdicts 1,0,0; B a little better in each. */
function pair(options: { clusters?: Record<string, string>; domains?: Record<string, string> } = {}) {
  const domains = options.domains ?? {
    pd0: 'product-dev',
    pd1: 'product-dev',
    pd2: 'product-dev',
    pd3: 'product-dev',
    sup0: 'support',
    sup1: 'support',
    sup2: 'support',
  };
  const side = (id: string, version: string, scores: number[]) =>
    experimentOf(
      id,
      ['pd0', 'pd1', 'pd2', 'pd3', 'sup0', 'sup1', 'sup2'].map((task, i) => ({
        task,
        score: scores[i]!,
        pass: scores[i]! >= 0.5,
      })),
      {
        version,
        domains,
        ...(options.clusters ? { clusters: options.clusters } : {}),
        metrics: ['accuracy'],
      },
    );
  return [
    side('a', '1.0.0', [0.2, 0.4, 0.6, 0.8, 1, 0, 0]),
    side('b', '1.1.0', [0.4, 0.6, 0.6, 1.0, 1, 1, 0]),
  ];
}

describe('compareExperiments by domain', () => {
  it('adds a per-domain and pooled comparison per candidate when the shared tasks span domains', () => {
    const c = compareExperiments(pair());
    expect(c.by_domain).toHaveLength(1);
    const accuracy = c.by_domain![0]!.metrics[0]!;
    expect(accuracy.per_domain.map((d) => [d.domain, d.test?.test, d.test?.n])).toEqual([
      ['product-dev', 'paired_t', 4],
      ['support', 'mcnemar_exact', 3],
    ]);
    expect(accuracy.pooled?.mean_difference).toBeCloseTo(29 / 120, 14);
    // The main table is unchanged: one paired test over all 7 tasks.
    expect(c.metrics[0]!.deltas[0]!.paired?.n).toBe(7);
  });

  it('leaves it out for one domain, and for tasks without a recorded domain', () => {
    const one = Object.fromEntries(
      ['pd0', 'pd1', 'pd2', 'pd3', 'sup0', 'sup1', 'sup2'].map((t) => [t, 'support']),
    );
    expect(compareExperiments(pair({ domains: one })).by_domain).toBeUndefined();
    const partial = { pd0: 'product-dev', sup0: 'support' };
    expect(compareExperiments(pair({ domains: partial })).by_domain).toBeUndefined();
  });

  it('refuses to pool clustered tasks (and clusters the per-domain tests)', () => {
    const clusters = { pd0: 'c1', pd1: 'c1', pd2: 'c2', pd3: 'c2', sup0: 'c3', sup1: 'c3', sup2: 'c4' };
    const accuracy = compareExperiments(pair({ clusters })).by_domain![0]!.metrics[0]!;
    expect(accuracy.pooled).toBeNull();
    expect(accuracy.refused).toBe(
      'tasks carry clusters: the stratified test treats tasks as independent, which clustered tasks are not',
    );
    expect(accuracy.per_domain[0]!.test?.test).toBe('cluster_t');
  });

  it('weights domains by shared tasks on request', () => {
    const c = compareExperiments(pair(), { weighting: 'tasks' });
    expect(c.by_domain![0]!.domains.map((d) => d.weight)).toEqual([4 / 7, 3 / 7]);
    expect(c.by_domain![0]!.metrics[0]!.pooled?.mean_difference).toBeCloseTo(1.6 / 7, 14);
  });
});
