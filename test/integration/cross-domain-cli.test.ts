import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainComparison, DomainMetricComparison } from '../../src/compare/by-domain.ts';
import type { Comparison } from '../../src/compare/types.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import { experimentToJson } from '../../src/store/index.ts';
import type { Timeline } from '../../src/timeline/timeline.ts';
import { experimentOf, type TrialSpec } from '../helpers/comparison.ts';
// Drives the built CLI (`npx tsdown` first; `npm test` does it in pretest).
import { cli } from '../helpers/run-cli.ts';
import { REFERENCE_DIR } from '../helpers/stats-reference.ts';

/**
 * Issue 17 item 2 through the built CLI: two harness versions compared across product-dev and
 * support tasks give per-domain tests and a pooled stratified test that match a hand-computed
 * example (docs/statistics.md, "Across domains") and scipy (stats-reference/stratified.json);
 * metrics that cannot be pooled are refused with the reason; one domain adds nothing.
 */

type Side = Record<string, number>;
const ref = JSON.parse(readFileSync(`${REFERENCE_DIR}stratified.json`, 'utf8')) as {
  domains: Record<string, { a: Side; b: Side }>;
  // biome-ignore lint/suspicious/noExplicitAny: reference numbers are read field by field
  expected: any;
};

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-cross-domain-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Per-task scores by domain -> the experiments of versions 1.0.0 (A) and 1.1.0 (B). */
function experiments(
  domains: Record<string, { a: Side; b: Side }>,
  extra: (task: string, domain: string) => Partial<TrialSpec> = () => ({}),
): { a: Experiment; b: Experiment } {
  const domainOf = Object.fromEntries(
    Object.entries(domains).flatMap(([domain, d]) => Object.keys(d.a).map((task) => [task, domain])),
  );
  const side = (key: 'a' | 'b', version: string) =>
    experimentOf(
      `cross-${key}`,
      Object.entries(domains).flatMap(([domain, d]) =>
        Object.entries(d[key]).map(([task, score]) => ({
          task,
          score,
          pass: score >= 0.5,
          ...extra(task, domain),
        })),
      ),
      {
        version,
        domains: domainOf,
        suiteId: 'cross-domain',
        metrics: ['accuracy', 'success_rate', 'cost', 'cost_per_task'],
      },
    );
  return { a: side('a', '1.0.0'), b: side('b', '1.1.0') };
}

async function save(name: string, pair: { a: Experiment; b: Experiment }): Promise<[string, string]> {
  await writeFile(join(dir, `${name}-a.json`), experimentToJson(pair.a));
  await writeFile(join(dir, `${name}-b.json`), experimentToJson(pair.b));
  return [`${name}-a.json`, `${name}-b.json`];
}

async function compareJson(args: readonly string[]): Promise<Comparison> {
  const r = await cli(['compare', ...args, '--format', 'json'], dir);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Comparison;
}

function metric(d: DomainComparison | undefined, name: string): DomainMetricComparison {
  const found = d?.metrics.find((m) => m.name === name);
  if (found === undefined) throw new Error(`no by-domain metric ${name}`);
  return found;
}

const perDomain = (m: DomainMetricComparison, domain: string) =>
  m.per_domain.find((x) => x.domain === domain)?.test;

describe('compare across product-dev and support (built CLI)', () => {
  it('matches the hand-computed example of docs/statistics.md', async () => {
    // product-dev d = (0.2, 0.2, 0, 0.2), support d = (0, 1, 0): D = (0.15 + 1/3) / 2 = 29/120,
    // SE² = ¼·0.01/4 + ¼·(1/3)/3, df = 2.0903; with task weights D = 1.6/7 (the raw mean).
    const files = await save(
      'hand',
      experiments({
        'product-dev': {
          a: { pd0: 0.2, pd1: 0.4, pd2: 0.6, pd3: 0.8 },
          b: { pd0: 0.4, pd1: 0.6, pd2: 0.6, pd3: 1.0 },
        },
        support: { a: { sup0: 1, sup1: 0, sup2: 0 }, b: { sup0: 1, sup1: 1, sup2: 0 } },
      }),
    );
    const c = await compareJson([...files, '--metric', 'accuracy']);
    const d = c.by_domain?.[0];
    expect(d?.domains).toEqual([
      { name: 'product-dev', shared_tasks: 4, weight: 0.5 },
      { name: 'support', shared_tasks: 3, weight: 0.5 },
    ]);
    const accuracy = metric(d, 'accuracy');
    expect(perDomain(accuracy, 'product-dev')?.mean_difference).toBeCloseTo(0.15, 12);
    expect(perDomain(accuracy, 'support')?.mean_difference).toBeCloseTo(1 / 3, 12);
    const se2 = 0.000625 + 1 / 36;
    expect(accuracy.pooled).toMatchObject({ test: 'stratified_t', weighting: 'equal', significant: false });
    expect(accuracy.pooled?.mean_difference).toBeCloseTo(29 / 120, 12);
    expect(accuracy.pooled?.stderr).toBeCloseTo(Math.sqrt(se2), 12);
    expect(accuracy.pooled?.df).toBeCloseTo(2.0903070213802843, 9);
    expect(accuracy.pooled?.p_value).toBeCloseTo(0.28294409916122715, 9);
    expect(accuracy.raw_difference).toBeCloseTo(1.6 / 7, 12);

    const byTasks = await compareJson([...files, '--metric', 'accuracy', '--weights', 'tasks']);
    const pooled = metric(byTasks.by_domain?.[0], 'accuracy').pooled;
    expect(byTasks.by_domain?.[0]?.domains.map((x) => x.weight)).toEqual([4 / 7, 3 / 7]);
    expect(pooled?.mean_difference).toBeCloseTo(1.6 / 7, 12);
    expect(pooled?.p_value).toBeCloseTo(0.24809255049467938, 9);
  }, 60_000);

  it('matches scipy per domain and pooled, with equal and with task weights', async () => {
    const files = await save('scipy', experiments(ref.domains));
    const e = ref.expected;
    for (const weighting of ['equal', 'tasks'] as const) {
      const c = await compareJson([...files, '--weights', weighting, '--adjust', 'none']);
      const accuracy = metric(c.by_domain?.[0], 'accuracy');
      // Each domain gets the main table's rule: scores the paired t test, one pass/fail verdict
      // per task (support's accuracy is 0 or 1 on every task) McNemar's exact test.
      const scores = perDomain(accuracy, 'product-dev');
      expect(scores?.test).toBe('paired_t');
      expect(scores?.n).toBe(8);
      expect(scores?.mean_difference).toBeCloseTo(e.per_domain['product-dev'].mean_difference, 12);
      expect(scores?.p_value).toBeCloseTo(e.per_domain['product-dev'].paired_t.p_value, 10);
      for (const name of ['accuracy', 'success_rate']) {
        const verdicts = perDomain(metric(c.by_domain?.[0], name), 'support');
        expect(verdicts).toMatchObject({
          test: 'mcnemar_exact',
          n: 20,
          p_value: e.per_domain.support.mcnemar_exact.p_value,
        });
        expect(verdicts?.mean_difference).toBeCloseTo(e.per_domain.support.mean_difference, 12);
      }
      const x = e[`pooled_${weighting}`];
      const p = accuracy.pooled;
      expect(p?.strata.map((s) => s.weight)).toEqual(x.weights);
      expect(p?.mean_difference).toBeCloseTo(x.mean_difference, 12);
      expect(p?.stderr).toBeCloseTo(x.stderr, 12);
      expect(p?.df).toBeCloseTo(x.df, 9);
      expect(p?.p_value).toBeCloseTo(x.p_value, 10);
      expect(p?.ci95?.[0]).toBeCloseTo(x.ci95[0], 8);
      expect(p?.ci95?.[1]).toBeCloseTo(x.ci95[1], 8);
      expect(accuracy.raw_difference).toBeCloseTo(e.raw.mean_difference, 12);
    }
  }, 60_000);

  it('refuses to pool a total and a metric one domain does not measure, and says why', async () => {
    // Only the product-dev tasks are priced: cost_per_task exists in one domain.
    const files = await save(
      'priced',
      experiments(ref.domains, (_, domain) => (domain === 'product-dev' ? { cost: 0.01 } : {})),
    );
    const c = await compareJson(files);
    const d = c.by_domain?.[0];
    expect(metric(d, 'cost_per_task')).toMatchObject({
      pooled: null,
      refused: 'not measured in support: pooling would silently weigh only the other domains',
    });
    expect(metric(d, 'cost').refused).toMatch(/^a total over different task sets/);
    expect(metric(d, 'accuracy').pooled?.test).toBe('stratified_t');

    const shown = await cli(['compare', ...files], dir);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('By domain: v1.1.0 vs v1.0.0');
    expect(shown.stdout).toContain(
      'Weights (equal per domain): product-dev 50% (8 tasks), support 50% (20 tasks)',
    );
    expect(shown.stdout).toContain('cost_per_task not pooled: not measured in support');
    const markdown = await cli(['compare', ...files, '--format', 'markdown', '--weights', 'tasks'], dir);
    expect(markdown.stdout).toContain(
      '**By domain: v1.1.0 vs v1.0.0** · Weights (by shared tasks): product-dev 28.6% (8 tasks), support 71.4% (20 tasks)',
    );
    expect(markdown.stdout).toContain(
      '| accuracy | +9.0 pp (p 0.037, t(7)) | -15.0 pp (p 1.000, McNemar) | -8.1 pp |',
    );
  }, 60_000);

  it('adds nothing when the shared tasks lie in one domain', async () => {
    const files = await save('one', experiments({ support: ref.domains['support']! }));
    const c = await compareJson(files);
    expect(c.by_domain).toBeUndefined();
    const shown = await cli(['compare', ...files], dir);
    expect(shown.stdout).not.toContain('By domain');
  }, 60_000);

  it('timeline: each step of a cross-domain lineage gets its per-domain and pooled change', async () => {
    const store = await mkdtemp(join(dir, 'timeline-'));
    const { a, b } = experiments(ref.domains);
    // A third version equal to B: its step changes nothing in any domain.
    const c = {
      ...b,
      id: 'cross-c',
      harness: { ...b.harness, version: '1.2.0' },
      created_at: '2026-01-03T00:00:00.000Z',
    };
    for (const [name, e] of [
      ['a', a],
      ['b', { ...b, created_at: '2026-01-02T00:00:00.000Z' }],
      ['c', c],
    ] as const) {
      await writeFile(join(store, `${name}.json`), experimentToJson(e));
      expect((await cli(['runs', 'import', `${name}.json`], store)).status).toBe(0);
    }
    const t = JSON.parse(
      (await cli(['timeline', '--metric', 'accuracy', '--format', 'json'], store)).stdout,
    ) as Timeline;
    expect(t.points.map((p) => p.version)).toEqual(['1.0.0', '1.1.0', '1.2.0']);
    expect(t.points[0]?.by_domain).toBeUndefined();
    const step = metric(t.points[1]?.by_domain, 'accuracy');
    expect(perDomain(step, 'product-dev')?.p_value).toBeCloseTo(
      ref.expected.per_domain['product-dev'].paired_t.p_value,
      10,
    );
    expect(step.pooled?.mean_difference).toBeCloseTo(ref.expected.pooled_equal.mean_difference, 12);
    expect(step.pooled?.p_value).toBeCloseTo(ref.expected.pooled_equal.p_value, 10);
    expect(metric(t.points[2]?.by_domain, 'accuracy').pooled).toMatchObject({
      mean_difference: 0,
      test: 'sign_test',
      p_value: 1,
    });
    const text = (await cli(['timeline', '--metric', 'accuracy'], store)).stdout;
    expect(text).toContain(
      'By domain, 1.1.0 vs 1.0.0 (equal weights: product-dev 8 tasks, support 20 tasks; p unadjusted):',
    );
    expect(text).toMatch(
      / {2}accuracy: product-dev \+9\.0 pp \(p 0\.009\), support -15\.0 pp \(p 0\.375\); pooled -3\.0 pp \[-14\.7 pp, \+8\.7 pp\] p 0\.600/,
    );
  }, 90_000);

  it('rejects an unknown weighting as wrong usage', async () => {
    const r = await cli(['compare', 'x.json', 'y.json', '--weights', 'sizes'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("argument 'sizes' is invalid");
  });
});
