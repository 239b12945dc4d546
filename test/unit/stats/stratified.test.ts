import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stratifiedPaired } from '../../../src/stats/stratified.ts';
import { REFERENCE_DIR } from '../../helpers/stats-reference.ts';

const values = (xs: readonly number[], prefix: string) => new Map(xs.map((x, i) => [`${prefix}${i}`, x]));

/**
 * The worked example of docs/statistics.md ("Across domains"), computed by hand:
 * product-dev d = (0.2, 0.2, 0, 0.2): mean 0.15, s² = (3·0.05² + 0.15²)/3 = 0.01, n = 4;
 * support d = (0, 1, 0): mean 1/3, s² = (2·(1/3)² + (2/3)²)/2 = 1/3, n = 3.
 * Equal weights: D = (0.15 + 1/3)/2 = 29/120; SE² = ¼·0.01/4 + ¼·(1/3)/3 = 0.000625 + 1/36;
 * df = SE⁴ / (0.000625²/3 + (1/36)²/2) = 2.0903.
 * Task weights 4/7, 3/7: D = (4·0.15 + 3·1/3)/7 = 1.6/7, the raw mean over the 7 tasks.
 */
const example = [
  { name: 'product-dev', a: values([0.2, 0.4, 0.6, 0.8], 'pd'), b: values([0.4, 0.6, 0.6, 1.0], 'pd') },
  { name: 'support', a: values([1, 0, 0], 'sup'), b: values([1, 1, 0], 'sup') },
];

describe('stratifiedPaired: the hand-computed example', () => {
  it('equal weights: each domain counts one half', () => {
    const r = stratifiedPaired(example);
    expect(r.test).toBe('stratified_t');
    expect(r.strata.map((s) => [s.name, s.n, s.weight])).toEqual([
      ['product-dev', 4, 0.5],
      ['support', 3, 0.5],
    ]);
    expect(r.strata[0]!.variance).toBeCloseTo(0.01, 14);
    expect(r.strata[1]!.variance).toBeCloseTo(1 / 3, 14);
    expect(r.mean_difference).toBeCloseTo(29 / 120, 14);
    const se2 = 0.000625 + 1 / 36;
    expect(r.stderr).toBeCloseTo(Math.sqrt(se2), 14);
    expect(r.df).toBeCloseTo((se2 * se2) / (0.000625 ** 2 / 3 + (1 / 36) ** 2 / 2), 12);
    expect(r.df).toBeCloseTo(2.0903070213802843, 10);
    expect(r.p_value).toBeCloseTo(0.28294409916122715, 9); // scipy: 2·t.sf(|D/SE|, df)
    expect(r.significant).toBe(false);
    expect(r.ci95![0]).toBeLessThan(0);
    expect(r.ci95![1]).toBeGreaterThan(r.mean_difference!);
  });

  it('task weights give the raw pooled mean, with the stratified SE', () => {
    const r = stratifiedPaired(example, { weighting: 'tasks' });
    expect(r.strata.map((s) => s.weight)).toEqual([4 / 7, 3 / 7]);
    expect(r.mean_difference).toBeCloseTo(1.6 / 7, 14);
    expect(r.stderr).toBeCloseTo(0.1456862718169367, 12);
    expect(r.df).toBeCloseTo(2.1608950452850295, 10);
    expect(r.p_value).toBeCloseTo(0.24809255049467938, 9);
  });
});

describe('stratifiedPaired against scipy (test/fixtures/stats-reference/stratified.json)', () => {
  const ref = JSON.parse(readFileSync(`${REFERENCE_DIR}stratified.json`, 'utf8'));
  const strata = Object.entries(
    ref.domains as Record<string, { a: Record<string, number>; b: Record<string, number> }>,
  ).map(([name, d]) => ({ name, a: new Map(Object.entries(d.a)), b: new Map(Object.entries(d.b)) }));
  it.each(['equal', 'tasks'] as const)('%s weights', (weighting) => {
    const e = ref.expected[`pooled_${weighting}`];
    const r = stratifiedPaired(strata, { weighting });
    expect(r.strata.map((s) => s.weight)).toEqual(e.weights);
    expect(r.mean_difference).toBeCloseTo(e.mean_difference, 12);
    expect(r.stderr).toBeCloseTo(e.stderr, 12);
    expect(r.df).toBeCloseTo(e.df, 9);
    expect(r.statistic).toBeCloseTo(e.statistic, 10);
    expect(r.p_value).toBeCloseTo(e.p_value, 10);
    expect(r.ci95![0]).toBeCloseTo(e.ci95[0], 8);
    expect(r.ci95![1]).toBeCloseTo(e.ci95[1], 8);
  });
  it('task weights reproduce the raw mean difference, which the big support domain dominates', () => {
    const r = stratifiedPaired(strata, { weighting: 'tasks' });
    expect(r.mean_difference).toBeCloseTo(ref.expected.raw.mean_difference, 12);
    expect(stratifiedPaired(strata).mean_difference).toBeGreaterThan(r.mean_difference!);
  });
});

describe('stratifiedPaired: when there is no test', () => {
  it('needs two domains', () => {
    const r = stratifiedPaired(example.slice(0, 1));
    expect(r).toMatchObject({
      test: null,
      p_value: null,
      reason: 'a stratified test needs at least two domains',
    });
    expect(r.mean_difference).toBeCloseTo(0.15, 14);
  });
  it('names a domain with fewer than two shared tasks', () => {
    const r = stratifiedPaired([example[0]!, { name: 'ops', a: values([1], 'o'), b: values([0], 'o') }]);
    expect(r).toMatchObject({ test: null, stderr: null, ci95: null, significant: false });
    expect(r.reason).toBe('domain ops has 1 shared task(s): its variance cannot be estimated');
  });
  it('no spread anywhere, every task one way: the exact sign test over all tasks (never p = 0)', () => {
    const up = (n: number, prefix: string) => ({
      name: prefix,
      a: values(Array(n).fill(0), prefix),
      b: values(Array(n).fill(1), prefix),
    });
    const r = stratifiedPaired([up(3, 'x'), up(3, 'y')]);
    expect(r).toMatchObject({
      test: 'sign_test',
      stderr: 0,
      mean_difference: 1,
      p_value: 2 * 0.5 ** 6,
      significant: true,
    });
    expect(stratifiedPaired([up(2, 'x'), up(2, 'y')])).toMatchObject({ p_value: 0.125, significant: false });
  });
  it('no spread but the domains moved in opposite directions: no test, and says why', () => {
    const r = stratifiedPaired([
      { name: 'x', a: values([0, 0], 'x'), b: values([1, 1], 'x') },
      { name: 'y', a: values([1, 1, 1], 'y'), b: values([0, 0, 0], 'y') },
    ]);
    expect(r).toMatchObject({ test: null, p_value: null, mean_difference: 0 });
    expect(r.reason).toBe('no spread inside any domain, and the domains moved in opposite directions');
  });
  it('only the tasks both sides ran count in a domain', () => {
    const r = stratifiedPaired([
      { name: 'product-dev', a: example[0]!.a, b: new Map([...example[0]!.b, ['pd-extra', 1]]) },
      example[1]!,
    ]);
    expect(r.strata[0]!.n).toBe(4);
    expect(r.mean_difference).toBeCloseTo(29 / 120, 14);
  });
});

describe('docs/statistics.md "Across domains" states the numbers the library computes', () => {
  const doc = readFileSync(new URL('../../../docs/statistics.md', import.meta.url), 'utf8');
  // Whitespace-normalised, so rewrapping the paragraph does not break the check.
  const section = doc
    .slice(doc.indexOf('## Across domains'), doc.indexOf('## A worked example'))
    .replace(/\s+/g, ' ');
  it('the hand-computed example', () => {
    const equal = stratifiedPaired(example);
    const tasks = stratifiedPaired(example, { weighting: 'tasks' });
    expect(section).toContain(`D = (0.15 + 1/3)/2 = **${equal.mean_difference!.toFixed(4)}**`);
    expect(section).toContain(`SE = ${equal.stderr!.toFixed(4)}`);
    expect(section).toContain(`= **${equal.df!.toFixed(2)}**, p = **${equal.p_value!.toFixed(3)}**`);
    expect(section).toContain(
      `D = 1.6/7 = ${tasks.mean_difference!.toFixed(4)}, the raw mean over the 7 tasks, SE = ${tasks.stderr!.toFixed(4)}, df = ${tasks.df!.toFixed(2)}, p = ${tasks.p_value!.toFixed(3)}`,
    );
  });
  it('the scipy reference case', () => {
    const ref = JSON.parse(readFileSync(`${REFERENCE_DIR}stratified.json`, 'utf8'));
    const e = ref.expected;
    const pp = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(x * 100).toFixed(1)}`;
    const text = section;
    expect(text).toContain(
      `${pp(e.per_domain['product-dev'].mean_difference)} points on 8 tasks (paired t, p = ${e.per_domain['product-dev'].paired_t.p_value.toFixed(3)})`,
    );
    expect(text).toContain(
      `(${pp(e.per_domain.support.mean_difference)} points, McNemar p = ${e.per_domain.support.mcnemar_exact.p_value.toFixed(3)})`,
    );
    expect(text).toContain(`The raw difference over the 28 tasks is ${pp(e.raw.mean_difference)} points`);
    expect(text).toContain(`support's 20 tasks carry ${Math.round(e.pooled_tasks.weights[1] * 100)}%`);
    const q = e.pooled_equal;
    expect(text).toContain(
      `the pooled difference is ${pp(q.mean_difference)} points, 95% interval [${pp(q.ci95[0])}, ${pp(q.ci95[1])}], p = ${q.p_value.toFixed(3)}`,
    );
  });
});
