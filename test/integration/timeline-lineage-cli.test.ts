import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/compare/types.ts';
import { experimentToJson, parseExperimentJson } from '../../src/store/index.ts';
import type { Timeline } from '../../src/timeline/timeline.ts';
import { experimentOf } from '../helpers/comparison.ts';
// Drives the built CLI (`npx tsdown` first; `npm test` does it in pretest).
import { cli } from '../helpers/run-cli.ts';
import { REFERENCE_DIR, referenceCase } from '../helpers/stats-reference.ts';

/**
 * `timeline`, `compare` and `power` on a store, checked against scipy/statsmodels: a synthetic
 * 5-version drift (issue 9: "a steady -7.2-point drift got one *"), and the simulated harness
 * lineage of examples/harness-lineage on the product-dev suite (seed 7, 2 epochs; exported to
 * test/fixtures/stats-reference/lineage by refresh-lineage.ts).
 */

const near = (actual: number | null | undefined, expected: number, digits = 9) => {
  expect(actual).not.toBeNull();
  expect(actual).toBeCloseTo(expected, digits);
};

async function importInto(dir: string, name: string, json: string): Promise<void> {
  await writeFile(join(dir, name), json);
  const r = await cli(['runs', 'import', name], dir);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

describe('timeline of a steady drift (reference case "timeline")', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-timeline-drift-'));
    const c = referenceCase('timeline');
    // Run in an order unlike the version order: v0.5.0 first, then 0.2.0, 0.1.0, 0.4.0, 0.3.0.
    const runDay = [3, 2, 5, 4, 1];
    for (const [v, values] of (c.versions ?? []).entries()) {
      const e = experimentOf(
        `drift-${v}`,
        Object.entries(values).map(([task, xs]) => ({ task, score: xs[0]! })),
        {
          version: `0.${v + 1}.0`,
          name: 'drifter',
          createdAt: `2026-03-0${runDay[v]}T00:00:00.000Z`,
          metrics: ['accuracy'],
        },
      );
      await importInto(dir, `v${v}.json`, experimentToJson(e));
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('orders by version, adjusts the steps, marks their direction and tests the whole lineage', async () => {
    const e = referenceCase('timeline').expected;
    const t = JSON.parse((await cli(['timeline', '--format', 'json'], dir)).stdout) as Timeline;
    expect(t.order).toBe('semver');
    expect(t.points.map((p) => p.version)).toEqual(['0.1.0', '0.2.0', '0.3.0', '0.4.0', '0.5.0']);
    const steps = t.points.slice(1).map((p) => p.cells[0]!.change!);
    steps.forEach((s, i) => {
      near(s.p_value, e.step_p[i], 12);
      near(s.p_adjusted, e.step_p_holm[i], 12);
    });
    expect(steps.map((s) => s.mark)).toEqual(['▼', '', '▼', '▼']);
    const trend = t.trends[0]!;
    near(trend.slope, e.slope.slope, 12);
    near(trend.p_value, e.slope.p_value, 10);
    near(trend.ci95?.[0], e.slope.ci95[0], 8);
    near(trend.first_last?.p_value, e.first_last.p_value, 12);
    expect(trend).toMatchObject({ significant: true, is_regression: true });
    const text = await cli(['timeline'], dir);
    expect(text.stdout).toMatch(/^Accuracy\s+\S+\s+\S+ → \S+\s+higher is better\s+worsening$/m);
    expect(text.stdout).toMatch(/^Accuracy: slope -1\.\d+ pp per version \[/m);
  });

  it('writes HTML by the extension of -o', async () => {
    const r = await cli(['timeline', '-o', 'out/timeline.html'], dir);
    expect(r.stdout).toBe('wrote html timeline to out/timeline.html\n');
    const html = await readFile(join(dir, 'out', 'timeline.html'), 'utf8');
    expect(html).toContain('class="chart-title"');
    expect((await cli(['timeline', '-o', 'out/timeline.pdf'], dir)).status).toBe(2);
  });
});

describe('the simulated harness lineage (examples/harness-lineage, product-dev suite)', () => {
  let dir = '';
  const lineage = join(REFERENCE_DIR, 'lineage');
  const ids = new Map<string, string>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-lineage-'));
    for (const file of (await readdir(lineage)).sort()) {
      const json = await readFile(join(lineage, file), 'utf8');
      const e = parseExperimentJson(json, file);
      ids.set(e.harness.version, e.id);
      await importInto(dir, file, json);
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('timeline: the reference step tests, Holm over the table, and the lineage slopes', async () => {
    const e = referenceCase('lineage').expected;
    const t = JSON.parse((await cli(['timeline', '--format', 'json'], dir)).stdout) as Timeline;
    expect(t.points.map((p) => p.version)).toEqual(e.versions);
    expect(t.metrics.map((m) => m.name)).toEqual([
      'hitl_unplanned',
      'first_pass_approval_rate',
      'cost_per_task',
      'overall_score',
    ]);
    // Rubric grades are pending (no judge in the simulation): at most one task has an overall
    // score per version, so its steps have no test and do not count in the family.
    expect(t.points.slice(1).map((p) => p.cells[3]!.change?.p_value ?? null)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    const family: number[] = e.holm_over_steps_of_default_metrics;
    t.metrics.slice(0, 3).forEach((m, j) => {
      const ref = e[m.name];
      t.points.slice(1).forEach((p, i) => {
        const change = p.cells[j]!.change!;
        near(change.p_value, ref.steps[i].p_value, 12);
        near(change.delta, ref.steps[i].mean_difference, 10);
        // The family is steps × metrics, step by step: index (step, metric).
        near(change.p_adjusted, family[j * 4 + i]!, 12);
      });
      const trend = t.trends[j]!;
      near(trend.slope, ref.slope.slope, 10);
      near(trend.p_value, ref.slope.p_value, 10);
    });
  });

  it('compare v0.2.0 v0.5.0 and power from the v0.4.0 → v0.5.0 pair', async () => {
    const e = referenceCase('lineage').expected;
    const c = JSON.parse(
      (await cli(['compare', ids.get('0.2.0')!, ids.get('0.5.0')!, '--format', 'json'], dir)).stdout,
    ) as Comparison;
    const hitl = c.metrics.find((m) => m.name === 'hitl_unplanned')!.deltas[0]!;
    near(hitl.paired?.mean_difference, e.hitl_unplanned.first_last.mean_difference, 12);
    near(hitl.paired?.p_value, e.hitl_unplanned.first_last.p_value, 12);
    expect(hitl).toMatchObject({ is_improvement: true });
    const power = e.power_hitl;
    const args = [
      'power',
      '--baseline',
      ids.get('0.4.0')!,
      '--metric',
      'hitl_unplanned',
      '--effect',
      '1',
      '--format',
      'json',
    ];
    const rho0 = JSON.parse((await cli(args, dir)).stdout);
    expect(rho0.plan).toMatchObject({ epochs: 2, tasks: power.tasks_rho0 });
    near(rho0.baseline_variance.within, power.baseline_within, 12);
    const pair = JSON.parse((await cli([...args, '--from', ids.get('0.5.0')!], dir)).stdout);
    expect(pair.plan.tasks).toBe(power.tasks_from_pair);
    near(pair.paired_variance.between, power.observed_between, 12);
  });
});
