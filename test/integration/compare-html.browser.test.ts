import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareExperiments } from '../../src/compare/index.ts';
import { comparisonChartSections } from '../../src/reporters/comparison/chart-sections.ts';
import { renderComparisonHtml } from '../../src/reporters/comparison/index.ts';
import { renderTimelineHtml } from '../../src/reporters/timeline/index.ts';
import { buildTimeline } from '../../src/timeline/index.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';
import { experimentOf, type TrialSpec } from '../helpers/comparison.ts';

const HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">';

function lineage(version: string, passRate: number, date: string) {
  const trials: TrialSpec[] = Array.from({ length: 12 }, (_, i) => ({
    task: `task-${i}`,
    pass: i / 12 < passRate,
    cost: 10 - passRate * 5,
    hitl: Math.round((1 - passRate) * 8),
    overall: passRate,
    explanation: HOSTILE,
  }));
  return experimentOf(`exp-${version}`, trials, { version, name: 'tf-harness', createdAt: date });
}

/** A computed style property, run in the page (this project type-checks without the DOM lib). */
function computedStyle(el: unknown, property: string): string {
  const view = globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> };
  return view.getComputedStyle(el)[property] ?? '';
}

const available = existsSync(CHROMIUM);
if (!available && process.env['CI'])
  throw new Error(`${CHROMIUM} is missing: install Debian's chromium for the browser tests`);

describe.skipIf(!available)('comparison and timeline pages in Chromium', () => {
  let dir: string;
  let browser: Browser;
  const experiments = [
    lineage('0.2.0', 0.25, '2026-04-07T00:00:00Z'),
    lineage('0.3.0', 0.5, '2026-04-21T00:00:00Z'),
    lineage('0.5.0', 0.9, '2026-06-02T00:00:00Z'),
  ];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-compare-html-'));
    const comparison = compareExperiments(experiments);
    await writeFile(
      join(dir, 'compare.html'),
      renderComparisonHtml(comparison, { charts: comparisonChartSections(comparison, experiments) }),
    );
    await writeFile(
      join(dir, 'timeline.html'),
      renderTimelineHtml(
        buildTimeline(experiments, {
          metrics: ['hitl_unplanned', 'cost_per_task', 'overall_score', 'success_rate'],
        }),
      ),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function load(file: string) {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(pathToFileURL(join(dir, file)).href);
    return { page, problems };
  }

  it('draws the comparison with its table, flips shown as text, and no script from agent output', async () => {
    const { page, problems } = await load('compare.html');
    expect(await page.locator('table[data-table] tbody tr').count()).toBeGreaterThan(3);
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('success_rate');
    expect(text).toContain('<script>window.__pwned=1</script>'); // the flipped tasks' explanations, as text
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('has a forest plot per candidate: a row per tested metric, the zero line, direction-aware colour', async () => {
    const { page, problems } = await load('compare.html');
    const plots = page.locator('svg.forest');
    expect(await plots.count()).toBe(2); // v0.3.0 and v0.5.0 against v0.2.0
    const first = plots.first();
    expect(await first.locator('text.chart-title').textContent()).toBe(
      'Paired differences, v0.3.0 vs v0.2.0 (95% intervals)',
    );
    expect(await first.locator('path.zero').count()).toBe(1);
    const rows = first.locator('g.forest-row');
    expect(await rows.count()).toBeGreaterThanOrEqual(4);
    // v0.5.0: success rises 25% -> 90% on 8 of 12 tasks (McNemar p = 0.0078, Holm < 0.05): green.
    const success = plots.nth(1).locator('g.forest-row[data-metric="success_rate"]');
    expect(await success.getAttribute('class')).toBe('forest-row better');
    // Green, not the grey of a non-significant row (v0.3.0: 3 flips, McNemar p = 0.25).
    const unchanged = first.locator('g.forest-row[data-metric="success_rate"]');
    expect(await unchanged.getAttribute('class')).toBe('forest-row same');
    const fill = await success.locator('circle.dot').evaluate(computedStyle, 'fill');
    expect(fill).not.toBe(await unchanged.locator('circle.dot').evaluate(computedStyle, 'fill'));
    // Cost fell (lower is better) on every task: an improvement, green too, left of the zero line.
    const cost = plots.nth(1).locator('g.forest-row[data-metric="cost_per_task"]');
    expect(await cost.getAttribute('class')).toBe('forest-row better');
    const zeroX = Number(
      await first.locator('path.zero').evaluate((el) => el.getAttribute('d')?.match(/^M([\d.]+)/)?.[1]),
    );
    const costX = Number(await cost.locator('circle.dot').getAttribute('cx'));
    expect(costX).toBeLessThan(zeroX + 0.01);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the per-task scatters and the cost–score frontier, without links in a static file', async () => {
    const { page, problems } = await load('compare.html');
    const figures = page.locator('#task-scatter figure');
    expect(await figures.count()).toBe(2);
    expect(await figures.nth(0).locator('circle.task-point').count()).toBe(12);
    expect(await page.locator('#task-scatter a').count()).toBe(0);
    const statuses = await page.$$eval('#cost-score g.cost-point', (points) =>
      points.map((p) => `${p.getAttribute('data-experiment')}:${p.getAttribute('data-status')}`),
    );
    expect(statuses).toEqual(['exp-0.2.0:dominated', 'exp-0.3.0:dominated', 'exp-0.5.0:frontier']);
    expect(problems).toEqual([]);
  });

  it('shows ids, dates and harness in the header, arrows and colour in the table, the test of each row', async () => {
    const { page } = await load('compare.html');
    const header = (await page.locator('#experiments table').textContent()) ?? '';
    expect(header).toContain('exp-0.2.0');
    expect(header).toContain('tf-harness 0.5.0');
    expect(header).toContain('2026-06-02 00:00:00');
    const row = page.locator('#metrics tbody tr[data-search="success_rate"]');
    const cells = await row.locator('td').allTextContents();
    expect(cells.some((c) => c.startsWith('▲ '))).toBe(true);
    const green = row.locator('td.pass').first();
    const colour = await green.evaluate(computedStyle, 'color');
    const plain = await row.locator('td').first().evaluate(computedStyle, 'color');
    expect(colour).not.toBe(plain);
    const tests = (await page.locator('ul.tests').textContent()) ?? '';
    expect(tests).toContain('success_rate: McNemar exact test on 12 shared tasks');
    expect(tests).toContain('cost_per_task: exact sign test on 12 shared tasks');
    await page.close();
  });

  it('draws the timeline charts with visible titles, one tick per version and axes in the table units', async () => {
    const { page, problems } = await load('timeline.html');
    const charts = page.locator('#charts svg.chart');
    expect(await charts.count()).toBe(4);
    const titles = await page.locator('#charts svg text.chart-title').allTextContents();
    expect(titles).toEqual([
      'Unplanned HITL (lower is better)',
      'Cost/task (lower is better)',
      'Score (higher is better)',
      'Success (higher is better)',
    ]);
    for (let i = 0; i < 4; i++) {
      const title = page.locator('#charts svg text.chart-title').nth(i);
      expect(await title.isVisible()).toBe(true);
      const ticks = await charts.nth(i).locator('text.tick').allTextContents();
      // x: exactly the versions, in order, once each (the old chart repeated "0.2.0" thrice).
      expect(ticks.filter((t) => t.startsWith('v'))).toEqual(['v0.2.0', 'v0.3.0', 'v0.5.0']);
    }
    const score = await charts.nth(2).locator('text.tick').allTextContents();
    // The score lies in [0, 1]: never an axis from -1.
    expect(score.filter((t) => !t.startsWith('v'))).toEqual(['0.000', '0.500', '1.000']);
    const cost = await charts.nth(1).locator('text.tick').allTextContents();
    expect(cost.filter((t) => !t.startsWith('v')).every((t) => t.startsWith('$'))).toBe(true);
    const success = await charts.nth(3).locator('text.tick').allTextContents();
    expect(success.filter((t) => !t.startsWith('v')).every((t) => t.endsWith('%'))).toBe(true);
    expect(await page.locator('table[data-table] tbody tr').count()).toBe(3);
    expect(problems).toEqual([]);
    await page.close();
  });
});
