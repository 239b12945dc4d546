import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { chromiumPage, describeInChromium } from '../helpers/chromium.ts';
import { cli } from '../helpers/run-cli.ts';
import {
  LARGE_DIFF,
  startViewerCli,
  type ViewerProcess,
  type ViewerStore,
  viewerStore,
} from '../helpers/viewer-store.ts';

/**
 * The built `harnesseval view` in Chromium, on a real SQLite store: traces load when opened (the
 * experiment page embeds none) and show the workspace diff; annotations are edited and deleted in
 * the browser, refused without the token or from elsewhere, and exported.
 */
describeInChromium('viewer traces and annotation edits in Chromium', () => {
  let dir: string;
  let fixture: ViewerStore;
  let viewer: ViewerProcess;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-view-traces-'));
    fixture = await viewerStore(dir);
    viewer = await startViewerCli(fixture.path);
    ({ context, page, problems } = await chromiumPage(join(dir, 'profile')));
    await page.goto(viewer.url, { waitUntil: 'load' }); // the token's cookie
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await viewer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads a trace when it is opened, from a URL of its own, and shows the diff of a known record', async () => {
    const traces: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.json')) traces.push(new URL(r.url()).pathname);
    });
    const response = await page.goto(`${viewer.origin}/experiments/${fixture.candidateId}`, {
      waitUntil: 'load',
    });
    // No trace in the page: its data names none, and no agent output is in the HTML.
    const html = (await response?.text()) ?? '';
    expect(html).not.toContain('read_file');
    expect(html).not.toContain('__pwned=1');
    expect(traces).toEqual([]);
    await page.click('#trials tr[data-task="gamma"] a[data-trace-src$="/0.json"]');
    await page.waitForSelector('#trace-panel:not([hidden]) .workspace-diff');
    expect(traces).toEqual([`/experiments/${fixture.candidateId}/trials/gamma/0.json`]);
    const panel = page.locator('#trace-panel');
    expect(await panel.locator('h2').first().textContent()).toContain('Trace: gamma (epoch 0)');
    // The small diff: its file, open, agent text shown as text.
    expect(await panel.locator('.workspace-diff td').allTextContents()).toEqual(['changed', 'src/gamma.ts']);
    expect(
      await panel
        .locator('.workspace-diff details')
        .evaluate((d) => (d as unknown as { open: boolean }).open),
    ).toBe(true);
    expect(await panel.locator('pre.diff').textContent()).toContain(
      "+export const x = '<script>window.__pwned=1</script>';",
    );
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');

    // The large one: collapsed, cut, and the bytes not shown counted.
    await page.click('#trials tr[data-task="gamma"] a[data-trace-src$="/1.json"]');
    await page.waitForSelector('#trace-panel:not([hidden]) h2:has-text("epoch 1")');
    expect(
      await panel
        .locator('.workspace-diff details')
        .evaluate((d) => (d as unknown as { open: boolean }).open),
    ).toBe(false);
    const shown = (await panel.locator('pre.diff').textContent()) ?? '';
    expect(shown.length).toBeLessThanOrEqual(20_000);
    expect(shown.endsWith('\n')).toBe(true);
    const omitted = Buffer.byteLength(LARGE_DIFF.diff) - Buffer.byteLength(shown) + LARGE_DIFF.omitted_bytes;
    expect(await panel.locator('.workspace-diff p.note').textContent()).toBe(
      `(${omitted} more bytes of the diff not shown)`,
    );

    // The trial's own URL is a page that shows the same trace, and names a missing trial 404.
    const own = await page.goto(`${viewer.origin}/experiments/${fixture.candidateId}/trials/gamma/0`, {
      waitUntil: 'load',
    });
    expect(own?.status()).toBe(200);
    await page.waitForSelector('[data-trace-of="0"] .workspace-diff');
    expect(await page.textContent('[data-trace-of="0"]')).toContain('Trace: gamma (epoch 0)');
    const missing = await fetch(`${viewer.origin}/experiments/${fixture.candidateId}/trials/gamma/7.json`);
    expect(missing.status).toBe(404);
    expect(problems).toEqual([]);
  }, 60_000);

  it('edits and deletes an annotation in the browser, refuses both without the token or from elsewhere, and exports them', async () => {
    await page.goto(`${viewer.origin}/experiments/${fixture.candidateId}`, { waitUntil: 'load' });
    await page.selectOption('form[data-annotate] select[name="run_id"]', { index: 1 });
    await page.fill('form[data-annotate] input[name="label"]', 'first-look');
    await page.fill('form[data-annotate] input[name="author"]', 'Ada');
    await Promise.all([page.waitForURL(/annotated=/), page.click('form[data-annotate] button[type=submit]')]);
    const reader = await openStore(fixture.path, { readonly: true });
    const [added] = await reader.listAnnotations(fixture.candidateId);
    await reader.close();
    if (added === undefined) throw new Error('the annotation was not stored');

    // Edit: the form is prefilled with what is stored.
    const edit = page.locator(`[data-annotation-edit="${added.id}"]`);
    await edit.locator('summary').click();
    expect(await edit.locator('input[name="label"]').inputValue()).toBe('first-look');
    await edit.locator('input[name="label"]').fill('real-bug');
    await edit.locator('textarea[name="note"]').fill('<img src=x onerror="window.__pwned=3">');
    await edit.locator('input[name="author"]').fill('Bo');
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      edit.locator('form[data-edit] button[type=submit]').click(),
    ]);
    expect(post.status()).toBe(303);
    await page.waitForSelector(`tr[data-annotation="${added.id}"]`);
    const row = (await page.textContent(`tr[data-annotation="${added.id}"]`)) ?? '';
    expect(row).toContain('real-bug');
    expect(row).toContain('<img src=x onerror="window.__pwned=3">');
    expect(row).toContain('(edited ');
    expect(await page.$('#annotations img')).toBeNull();
    const check = await openStore(fixture.path, { readonly: true });
    expect(await check.listAnnotations(fixture.candidateId)).toEqual([
      expect.objectContaining({
        id: added.id,
        label: 'real-bug',
        author: 'Bo',
        created_at: added.created_at,
      }),
    ]);
    await check.close();

    // Exported: the CLI's file and the viewer's download say the same.
    const exported = await cli(['annotations', 'export', fixture.candidateId, '--store', fixture.path]);
    expect(exported.status, exported.stderr).toBe(0);
    const download = await fetch(`${viewer.origin}/experiments/${fixture.candidateId}/annotations.csv`);
    expect(download.headers.get('content-type')).toContain('text/csv');
    expect(await download.text()).toBe(exported.stdout);
    expect(exported.stdout.split('\r\n')[0]).toBe(
      'experiment_id,annotation_id,run_id,task_id,epoch,label,note,author,created_at,updated_at',
    );
    expect(exported.stdout).toContain(`${fixture.candidateId},${added.id},${added.run_id},`);
    expect(exported.stdout).toContain(',real-bug,');

    // Without the token, with a wrong one, or from another origin: refused, nothing changed.
    const write = (path: string, token: string | undefined, origin: string) =>
      fetch(`${viewer.origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
        body: new URLSearchParams({
          ...(token === undefined ? {} : { token }),
          label: 'forged',
          author: 'evil',
        }).toString(),
      });
    const base = `/experiments/${fixture.candidateId}/annotations/${added.id}`;
    for (const path of [base, `${base}/delete`]) {
      expect((await write(path, undefined, viewer.origin)).status).toBe(403);
      expect((await write(path, 'wrong-token', viewer.origin)).status).toBe(403);
      expect((await write(path, viewer.token, 'http://evil.example')).status).toBe(403);
    }
    expect(
      (
        await write(
          `/experiments/${fixture.candidateId}/annotations/9999/delete`,
          viewer.token,
          viewer.origin,
        )
      ).status,
    ).toBe(404);
    const unchanged = await openStore(fixture.path, { readonly: true });
    expect((await unchanged.listAnnotations(fixture.candidateId)).map((a) => a.label)).toEqual(['real-bug']);
    await unchanged.close();

    // Delete, in the browser.
    await page.locator(`[data-annotation-edit="${added.id}"] summary`).click();
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 303),
      page.locator(`[data-annotation-edit="${added.id}"] form[data-delete] button`).click(),
    ]);
    await page.waitForSelector('p[data-annotations]');
    expect(await page.textContent('p[data-annotations]')).toContain('No annotations yet.');
    const after = await openStore(fixture.path, { readonly: true });
    expect(await after.listAnnotations(fixture.candidateId)).toEqual([]);
    await after.close();
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(problems).toEqual([]);
  }, 90_000);
});
