import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChartStore, chartStore } from '../helpers/chart-experiments.ts';
import { chromiumPage, describeInChromium } from '../helpers/chromium.ts';
import { startViewerCli, type ViewerProcess } from '../helpers/viewer-store.ts';

describeInChromium('viewer charts in Chromium', () => {
  let dir: string;
  let fixture: ChartStore;
  let viewer: ViewerProcess;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-view-charts-'));
    fixture = await chartStore(dir);
    viewer = await startViewerCli(fixture.path);
    ({ context, page, problems } = await chromiumPage(join(dir, 'profile')));
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await viewer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const [v10, v11, v12, v13, v14] = ['exp-v10', 'exp-v11', 'exp-v12', 'exp-v13', 'exp-v14'];

  it('plots one point per paired task and opens both traces of a task side by side', async () => {
    await page.goto(`${viewer.origin}/compare?id=${v10}&id=${v11}`, { waitUntil: 'load' });
    const sides = await page.$$eval('#task-scatter circle.task-point', (dots) =>
      dots.map((d) => `${d.getAttribute('data-task')}:${d.getAttribute('class')}`),
    );
    expect(sides.sort()).toEqual([
      't1:task-point above',
      't2:task-point below',
      't3:task-point same',
      't4:task-point above',
    ]);
    expect(await page.textContent('#task-scatter figcaption')).toContain('1 task not plotted');
    await Promise.all([
      page.waitForURL(/\/compare\/task\?/),
      page.click('#task-scatter circle[data-task="t2"]'),
    ]);
    const columns = await page.$$eval('.trace-column', (cols) =>
      cols.map((c) => [c.getAttribute('data-experiment'), c.querySelector('h2')?.textContent ?? '']),
    );
    expect(columns).toEqual([
      [v10, expect.stringContaining('Trace: t2')],
      [v11, expect.stringContaining('Trace: t2')],
    ]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('marks the Pareto frontier, the partial cost and the experiment without a cost', async () => {
    const ids = [v10, v11, v12, v13, v14].map((id) => `id=${id}`).join('&');
    await page.goto(`${viewer.origin}/compare?${ids}`, { waitUntil: 'load' });
    const statuses = await page.$$eval('#cost-score g.cost-point', (points) =>
      Object.fromEntries(
        points.map((p) => [p.getAttribute('data-experiment'), p.getAttribute('data-status')]),
      ),
    );
    expect(statuses).toEqual({
      [v10]: 'frontier',
      [v11]: 'frontier',
      [v12]: 'dominated',
      [v13]: 'incomplete',
    });
    expect(await page.textContent(`#cost-score [data-missing="${v14}"]`)).toContain('no cost recorded');
    expect(await page.textContent(`#cost-score [data-incomplete="${v13}"]`)).toContain('2 unpriced calls');
    expect(await page.$$('#task-scatter figure')).toHaveLength(4);
    expect(problems).toEqual([]);
  }, 60_000);

  it('opens a version from a timeline point and a step comparison from the line', async () => {
    const timeline = `${viewer.origin}/timeline?harness=lineage&suite=known-suite`;
    await page.goto(timeline, { waitUntil: 'load' });
    await Promise.all([
      page.waitForURL(new RegExp(`/experiments/${v12}$`)),
      page.click(`#charts figure:first-child a.point-link[href="/experiments/${v12}"]`),
    ]);
    expect(await page.textContent('h1')).toContain('1.2.0');
    await page.goto(timeline, { waitUntil: 'load' });
    const step = `/compare?id=${v10}&id=${v11}`;
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/compare' && url.search === `?id=${v10}&id=${v11}`),
      page.click(`#charts figure:first-child a.step[href="${step}"]`, { force: true }),
    ]);
    expect(await page.textContent('h1')).toContain('Comparison');
    expect(problems).toEqual([]);
  }, 60_000);
});
