import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareExperiments } from '../../src/compare/index.ts';
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
    await writeFile(join(dir, 'compare.html'), renderComparisonHtml(compareExperiments(experiments)));
    await writeFile(join(dir, 'timeline.html'), renderTimelineHtml(buildTimeline(experiments)));
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
    const text = await page.locator('body').innerText();
    expect(text).toContain('success_rate');
    expect(text).toContain('<script>window.__pwned=1</script>'); // the flipped tasks' explanations, as text
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the timeline chart and sorts its table', async () => {
    const { page, problems } = await load('timeline.html');
    const paths = page.locator('svg path');
    expect(await paths.count()).toBeGreaterThan(0);
    const box = await page.locator('svg').first().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(50);
    expect(await page.locator('table[data-table] tbody tr').count()).toBe(3);
    expect(problems).toEqual([]);
    await page.close();
  });
});
