import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { htmlReporter } from '../../src/reporters/html/index.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';
import { demoExperiment, XSS_IMG, XSS_SCRIPT } from '../helpers/experiment-fixture.ts';
import { mixedExperiment } from '../unit/reporters/experiment-factory.ts';

const MISSING = `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the HTML report's browser tests`;

if (!existsSync(CHROMIUM)) {
  if (process.env['CI']) {
    describe('HTML report in Chromium', () => {
      it('needs Chromium in CI', () => {
        throw new Error(MISSING);
      });
    });
  } else {
    console.warn(`skipping the HTML report's browser tests: ${MISSING}`);
    describe.skip(`HTML report in Chromium (skipped: ${MISSING})`, () => {
      it('runs in a browser', () => {});
    });
  }
} else {
  describe('HTML report in Chromium', () => {
    let dir: string;
    let context: BrowserContext;
    let reportUrl: string;
    let problems: string[] = [];
    let requests: string[] = [];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'he-html-browser-'));
      const file = join(dir, 'out', 'report.html');
      await htmlReporter.report(demoExperiment(), { destination: file });
      reportUrl = pathToFileURL(file).href;
      context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
        headless: true,
        viewport: { width: 1280, height: 900 },
      });
    });

    afterAll(async () => {
      await context?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    let page: Page;

    // One tab for all tests (a new tab costs about a second); each test loads the page afresh.
    async function open(url = reportUrl): Promise<Page> {
      if (!page) {
        page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning')
            problems.push(`console: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('request', (request) => requests.push(request.url()));
        page.on('dialog', (dialog) => {
          problems.push(`dialog: ${dialog.message()}`);
          void dialog.dismiss();
        });
      }
      await page.goto(url, { waitUntil: 'load' });
      return page;
    }

    afterEach(async () => {
      const seen = { problems, requests };
      problems = [];
      requests = [];
      expect(seen.problems).toEqual([]);
      // Nothing but the file itself is loaded: no CDN, font, image or favicon request.
      expect(seen.requests.filter((url) => !url.startsWith('file://') && !url.startsWith('data:'))).toEqual(
        [],
      );
    });

    const visibleTasks = (page: Page) =>
      page.$$eval('#trials tbody tr', (rows) =>
        rows.filter((row) => !row.hasAttribute('hidden')).map((row) => row.getAttribute('data-task')),
      );

    it('loads without errors and draws the charts', async () => {
      const page = await open();
      const charts = await page.$$eval('svg.chart', (svgs) =>
        svgs.map((svg) => {
          const box = svg.getBoundingClientRect();
          const marks = [...svg.querySelectorAll('rect.bar, circle.point')].map((mark) => {
            const b = mark.getBoundingClientRect();
            return b.width * b.height;
          });
          return { area: box.width * box.height, marks, axes: svg.querySelectorAll('path.axis').length };
        }),
      );
      expect(charts).toHaveLength(3);
      for (const chart of charts) {
        expect(chart.area).toBeGreaterThan(0);
        expect(chart.axes).toBe(1);
        expect(chart.marks.length).toBeGreaterThan(0);
        for (const area of chart.marks) expect(area).toBeGreaterThan(0);
      }
      const bands = await page.$$eval('svg.interval rect.ci', (rects) =>
        rects.map((r) => r.getBoundingClientRect().width),
      );
      expect(bands).toHaveLength(1);
      expect(bands[0]).toBeGreaterThan(0);
    });

    it('filters rows by text and by outcome', async () => {
      const page = await open();
      expect(await visibleTasks(page)).toHaveLength(6);
      await page.fill('input[data-filter-text="trials"]', 'beta');
      expect(await visibleTasks(page)).toEqual(['beta', 'beta']);
      expect(await page.textContent('[data-filter-count="trials"]')).toBe('2 of 6 shown');
      await page.fill('input[data-filter-text="trials"]', '');
      await page.selectOption('select[data-filter-outcome="trials"]', 'fail');
      const outcomes = await page.$$eval('#trials tbody tr:not([hidden])', (rows) =>
        rows.map((row) => row.getAttribute('data-outcome')),
      );
      expect(outcomes).toEqual(['fail', 'fail']);
      await page.selectOption('select[data-filter-outcome="trials"]', 'error');
      expect(await visibleTasks(page)).toEqual(['gamma']);
    });

    it('sorts by score on header click, missing scores last', async () => {
      const page = await open();
      const scores = () =>
        page.$$eval('#trials tbody tr', (rows) =>
          rows.map((row) => row.cells[3]?.getAttribute('data-value')),
        );
      await page.click('#trials th:nth-child(4) button');
      expect(await scores()).toEqual(['0.2', '0.3', '0.7', '0.8', '0.9', '']);
      await page.click('#trials th:nth-child(4) button');
      expect(await scores()).toEqual(['0.9', '0.8', '0.7', '0.3', '0.2', '']);
      expect(await page.getAttribute('#trials th:nth-child(4)', 'aria-sort')).toBe('descending');
    });

    it('opens the trace of a trial with its agent calls, tool calls and breakers', async () => {
      const page = await open();
      expect(await page.isHidden('#trace-panel')).toBe(true);
      await page.click('#trials tr[data-task="beta"] button[data-trial]');
      expect(await page.isVisible('#trace-panel')).toBe(true);
      const text = (await page.textContent('#trace-panel')) ?? '';
      expect(text).toContain('Trace: beta (epoch 0)');
      expect(text).toContain('Agent calls by role');
      for (const expected of [
        'planner',
        'coder',
        'model-a',
        'read_file',
        'src/beta.ts',
        'CB2:review-rejection',
        'correctness',
      ])
        expect(text).toContain(expected);
      const roles = await page.$$eval('#trace-panel h3', (heads) => heads.map((h) => h.textContent));
      expect(roles).toContain('Human touchpoints');
    });

    it('shows hostile agent output as text without running it', async () => {
      const page = await open();
      await page.click('#trials tr[data-task="beta"] button[data-trial]');
      await page.waitForTimeout(150);
      // A string expression: the test's tsconfig has no DOM types.
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
      expect(await page.$$eval('img', (images) => images.length)).toBe(0);
      expect(await page.textContent('#trace-panel pre')).toBe(`${XSS_SCRIPT} and ${XSS_IMG}`);
      const explanations = await page.$$eval('#trials td.explanation', (cells) =>
        cells.map((c) => c.textContent),
      );
      expect(explanations).toContain(`contains: ${XSS_IMG}`);
    });

    it('stays safe through escaping alone when the CSP is removed', async () => {
      const html = await readFile(new URL(reportUrl), 'utf8');
      const withoutCsp = join(dir, 'no-csp.html');
      await writeFile(withoutCsp, html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''));
      const page = await open(pathToFileURL(withoutCsp).href);
      for (const button of await page.$$('button[data-trial]')) await button.click();
      await page.waitForTimeout(150);
      // A string expression: the test's tsconfig has no DOM types.
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
      expect(await page.$$eval('img', (images) => images.length)).toBe(0);
    });

    it('renders the other reporters’ nasty strings (controls, bidi, emoji, markup) without errors', async () => {
      const file = join(dir, 'mixed.html');
      await htmlReporter.report(mixedExperiment(), { destination: file });
      const page = await open(pathToFileURL(file).href);
      for (const button of await page.$$('button[data-trial]')) await button.click();
      expect(await page.isVisible('#trace-panel')).toBe(true);
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
      expect(await page.$$eval('#trials tbody tr', (rows) => rows.length)).toBe(
        mixedExperiment().records.length,
      );
    });
  });
}
