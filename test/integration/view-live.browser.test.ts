import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { CHROMIUM, CHROMIUM_ARGS, describeInChromium } from '../helpers/chromium.ts';
import { cli, type RunningCli, startCli, waitFor } from '../helpers/run-cli.ts';
import { startViewerCli, type ViewerProcess } from '../helpers/viewer-store.ts';

/**
 * The live screen and annotations against real processes: a built `harnesseval run` writes ten
 * slow trials to a SQLite store while a built `harnesseval view` on the same file streams them to
 * Chromium; then a trial of that run is annotated in the browser.
 */
describeInChromium('viewer live screen and annotations in Chromium', () => {
  let dir: string;
  let store: string;
  let run: RunningCli;
  let experimentId = '';
  let viewer: ViewerProcess;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-view-live-'));
    store = join(dir, 'store.db');
    // The trials wait for a gate the test opens once the page is showing (see gated-agent.mjs).
    run = startCli(
      [
        'run',
        'test/fixtures/viewer-live/suite.yaml',
        '--store',
        store,
        '-j',
        '2',
        '--timeout',
        '600',
        '--no-progress',
      ],
      undefined,
      { HARNESSEVAL_LIVE_GATE: join(dir, 'gate') },
    );
    // The viewer opens an existing store: wait for the run to create its experiment.
    await waitFor(async () => {
      if (run.child.exitCode !== null) return true;
      try {
        const reader = await openStore(store, { readonly: true, mustExist: true });
        const [summary] = await reader.listExperiments();
        await reader.close();
        experimentId = summary?.id ?? '';
        return experimentId !== '';
      } catch {
        return false;
      }
    }, 60_000);
    if (experimentId === '') throw new Error(`the run stored no experiment: ${run.stderr()}`);
    viewer = await startViewerCli(store);
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await viewer?.stop();
    if (run?.child.exitCode === null) run.child.kill('SIGTERM');
    await run?.done.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rises to done as the run writes, without a reload, and ends the stream with the run', async () => {
    await page.goto(viewer.url, { waitUntil: 'load' }); // the token's cookie
    const response = await page.goto(`${viewer.origin}/experiments/${experimentId}/live`, {
      waitUntil: 'load',
    });
    expect(response?.status()).toBe(200);
    expect(await page.textContent('[data-live="done"]')).toBe('0');
    expect(await page.textContent('[data-live="total"]')).toBe('10');
    await page.evaluate('window.__samePage = true');
    await writeFile(join(dir, 'gate'), '');
    await page.waitForSelector('html[data-live-ended]', { timeout: 90_000 });
    expect(await page.evaluate('window.__samePage')).toBe(true); // updated in place, never reloaded
    expect(await page.textContent('[data-live="done"]')).toBe('10');
    expect(await page.textContent('[data-live="pass"]')).toBe('8');
    expect(await page.textContent('[data-live="fail"]')).toBe('2');
    expect(await page.textContent('[data-live="rate"]')).toBe('80.0%');
    expect(await page.textContent('[data-live="interval"]')).toMatch(/^\[\d+\.\d%, \d+\.\d%\]$/);
    expect(await page.evaluate("document.querySelector('progress').value")).toBe(10);
    expect(await page.textContent('[data-live-state]')).toContain('The run has ended');
    expect(await page.locator('[data-live-latest] li').count()).toBe(10);
    const result = await run.done;
    expect(result.status, result.stderr).not.toBe(null);
    expect(problems).toEqual([]);
  }, 120_000);

  it('saves an annotation entered in the browser, shows it as text in the trace, and refuses writes without the token or from elsewhere', async () => {
    await page.goto(viewer.url, { waitUntil: 'load' });
    await page.goto(`${viewer.origin}/experiments/${experimentId}`, { waitUntil: 'load' });
    const label = 'env<b>x</b>';
    const note = '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2">';
    await page.selectOption('form[data-annotate] select[name="run_id"]', { index: 3 });
    await page.fill('form[data-annotate] input[name="label"]', label);
    await page.fill('form[data-annotate] textarea[name="note"]', note);
    await page.fill('form[data-annotate] input[name="author"]', 'Browser Reader');
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('form[data-annotate] button[type=submit]'),
    ]);
    expect(post.status()).toBe(303);
    await page.waitForURL(/annotated=/);
    expect(await page.textContent('table[data-annotations]')).toContain(note);
    const reader = await openStore(store, { readonly: true });
    const [saved] = await reader.listAnnotations(experimentId);
    const experiment = await reader.getExperiment(experimentId);
    await reader.close();
    expect(saved).toMatchObject({ label, note, author: 'Browser Reader' });
    const index = experiment?.records.findIndex((r) => r.run_id === saved?.run_id) ?? -1;
    // The trace loads from its own URL when opened (the page embeds none).
    await page.locator('#trials a[data-trace-src]').nth(index).click();
    await page.waitForSelector('#trace-panel:not([hidden])');
    expect(await page.textContent('#trace-panel')).toContain(note);
    expect(await page.$('#trace-panel img, #annotations img')).toBeNull();
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');

    const write = (token: string | undefined, origin: string) =>
      fetch(`${viewer.origin}/experiments/${experimentId}/annotations`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
        body: new URLSearchParams({
          ...(token === undefined ? {} : { token }),
          run_id: saved?.run_id ?? '',
          label: 'forged',
          author: 'evil',
        }).toString(),
      });
    expect((await write(undefined, viewer.origin)).status).toBe(403);
    expect((await write('wrong-token', viewer.origin)).status).toBe(403);
    expect((await write(viewer.token, 'http://evil.example')).status).toBe(403);
    const check = await openStore(store, { readonly: true });
    expect((await check.listAnnotations(experimentId)).map((a) => a.label)).toEqual([label]);
    await check.close();
    // With both, an empty annotation is refused with its reason, not stored.
    const empty = await fetch(`${viewer.origin}/experiments/${experimentId}/annotations`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: viewer.origin },
      body: new URLSearchParams({
        token: viewer.token,
        run_id: saved?.run_id ?? '',
        author: 'Ada',
      }).toString(),
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('give a label, a note or both');
    // Reports show it too: `runs show` as terminal text, the static HTML report escaped.
    const show = await cli(['runs', 'show', experimentId, '--store', store]);
    expect(show.stdout).toContain(`[${label}] by Browser Reader`);
    const html = join(dir, 'report.html');
    expect((await cli(['report', experimentId, '--store', store, '-o', html])).status).toBe(0);
    const report = await readFile(html, 'utf8');
    expect(report).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(report).not.toContain(note);
    // The grade download is the CLI export's file (this run has no rubric, so only the header).
    const csv = await fetch(`${viewer.origin}/experiments/${experimentId}/grades.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((await csv.text()).startsWith('experiment_id,run_id,task_id,epoch,criterion,dimension')).toBe(
      true,
    );
    expect(problems).toEqual([]);
  }, 90_000);
});
