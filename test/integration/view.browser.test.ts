import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';
import {
  startViewerCli,
  type ViewerProcess,
  type ViewerStore,
  viewerStore,
} from '../helpers/viewer-store.ts';

const MISSING = `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the viewer's browser tests`;

if (!existsSync(CHROMIUM)) {
  if (process.env['CI']) {
    describe('viewer in Chromium', () => {
      it('needs Chromium in CI', () => {
        throw new Error(MISSING);
      });
    });
  } else {
    console.warn(`skipping the viewer's browser tests: ${MISSING}`);
    describe.skip(`viewer in Chromium (skipped: ${MISSING})`, () => {
      it('runs in a browser', () => {});
    });
  }
} else {
  describe('viewer in Chromium', () => {
    let dir: string;
    let fixture: ViewerStore;
    let viewer: ViewerProcess;
    let context: BrowserContext;
    let page: Page;
    const problems: string[] = [];
    const foreign: string[] = [];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'he-view-browser-'));
      fixture = await viewerStore(dir);
      viewer = await startViewerCli(fixture.path);
      context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
        headless: true,
        viewport: { width: 1280, height: 900 },
      });
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith(viewer.origin) && !request.url().startsWith('data:'))
          foreign.push(request.url());
      });
      page.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
    }, 90_000);

    afterAll(async () => {
      await context?.close();
      await viewer?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function visit(path: string): Promise<void> {
      const response = await page.goto(viewer.origin + path, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(200);
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    }

    it('loads every screen with no console error, no request elsewhere and no injected script', async () => {
      await page.goto(viewer.url, { waitUntil: 'load' }); // the printed URL: keeps the token, lands on /
      expect(new URL(page.url()).pathname).toBe('/');
      expect(new URL(page.url()).search).toBe('');
      for (const path of [
        '/',
        `/experiments/${fixture.baselineId}`,
        `/experiments/${fixture.candidateId}`,
        `/compare?id=${fixture.baselineId}&id=${fixture.candidateId}`,
        '/timeline',
        '/timeline?harness=demo-harness&suite=demo-suite',
        `/experiments/${fixture.pendingId}/grade`,
      ])
        await visit(path);
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
    }, 60_000);

    it('compares two experiments selected in the list, and a flipped task link opens its trace', async () => {
      await visit('/');
      await page.check(`input[value="${fixture.candidateId}"]`);
      await page.check(`input[value="${fixture.baselineId}"]`);
      await Promise.all([page.waitForURL(/\/compare\?/), page.click('#compare-form button[type=submit]')]);
      expect(await page.textContent('h1')).toContain('Comparison');
      await Promise.all([
        page.waitForURL(/task=beta/),
        page.click(`[data-flipped="beta"] a[href*="${fixture.candidateId}"]`),
      ]);
      await page.waitForSelector('#trace-panel:not([hidden])');
      expect(await page.textContent('#trace-panel')).toContain('Trace: beta');
      expect(problems).toEqual([]);
    }, 60_000);

    it('shows agent output with <script> and onerror= as text in the trace', async () => {
      await visit(`/experiments/${fixture.candidateId}?task=alpha&open=0`);
      await page.waitForSelector('#trace-panel:not([hidden])');
      expect(await page.textContent('#trace-panel')).toContain('<script>window.__pwned=1</script>');
      expect(await page.$('#trace-panel img')).toBeNull();
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
      expect(problems).toEqual([]);
    }, 30_000);

    it('saves a grade entered in the browser to the store and moves the overall score', async () => {
      await page.goto(viewer.url, { waitUntil: 'load' }); // the token's cookie, whatever ran before
      await visit(`/experiments/${fixture.pendingId}/grade`);
      await page.focus('input[name="level.code_quality"][value="1"]');
      await page.keyboard.press('4'); // the 1-4 shortcut
      await page.check('input[name="level.convention_adherence"][value="3"]');
      await page.fill('input[name="grader"]', 'Browser Grader');
      const [post] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.click('form[data-grade] button[type=submit]'),
      ]);
      expect(post.status(), await post.text().catch(() => '')).toBe(303);
      await page.waitForURL(/saved=ac-02/);
      expect(await page.textContent('[role=status]')).toContain('Saved the grade of ac-02');
      const store = await openStore(fixture.path, { readonly: true });
      const stored = await store.getExperiment(fixture.pendingId);
      await store.close();
      const criterion = stored?.records[0]?.criteria.find((c) => c.id === 'ac-02');
      expect(criterion?.grades.map((g) => [g.dimension, g.level, g.grader])).toEqual([
        ['code_quality', 4, 'Browser Grader'],
        ['convention_adherence', 3, 'Browser Grader'],
      ]);
      expect(stored?.scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.6 + 0.4 * (2 / 3)), 10);
      expect(problems).toEqual([]);
    }, 60_000);
  });
}
