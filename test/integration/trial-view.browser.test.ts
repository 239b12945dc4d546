import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, describeInChromium } from '../helpers/chromium.ts';
import { cli } from '../helpers/run-cli.ts';

// The experiment page as `run -o report.html` writes it, read in Chromium: a failed trial's input,
// expected value and output side by side, its command output labelled, and no empty boxes.

describeInChromium('the trial view in Chromium', () => {
  let dir = '';
  let context: BrowserContext;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-trial-view-'));
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
  });
  afterAll(async () => {
    await context?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function report(name: string, ...args: string[]) {
    const file = join(dir, `${name}.html`);
    const result = await cli(['run', ...args, '--no-store', '--no-progress', '-o', file]);
    expect(result.stderr).toContain(`wrote ${file}`);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, problems };
  }

  it('shows a failed exact case’s input, expected value and output side by side', async () => {
    const { page, problems } = await report('exact', 'test/fixtures/console/exact.yaml');
    await page.click('#trials tr[data-task="greet"] button[data-trial]');
    const titles = await page.$$eval('#trace-panel .side-by-side h3', (hs) => hs.map((h) => h.textContent));
    expect(titles).toEqual(['Input', 'Expected', 'Output']);
    const texts = await page.$$eval('#trace-panel .side-by-side pre', (ps) => ps.map((p) => p.textContent));
    expect(texts).toEqual(['Hello, Ada', 'Hello, Ada!', 'Hello, Ada']);
    // Side by side: the three boxes share a row at this width.
    const tops = await page.$$eval('#trace-panel .side-by-side > div', (ds) =>
      ds.map((d) => Math.round(d.getBoundingClientRect().top)),
    );
    expect(new Set(tops).size).toBe(1);
    // Nothing empty: no "none" tables, no "no data" charts; what is absent is said once.
    const panel = (await page.textContent('#trace-panel')) ?? '';
    expect(await page.$$eval('#trace-panel p.none', (ps) => ps.length)).toBe(0);
    expect(panel).toContain('Not reported in this trial: agent calls, tool calls, operator prompts');
    expect(await page.content()).not.toContain('no data');
    expect(await page.textContent('body')).toContain('no scored trial has a known cost');
    expect(problems).toEqual([]);
  });

  it('labels each command output with its criterion', async () => {
    const { page, problems } = await report(
      'command',
      'test/fixtures/console/task.yaml',
      '--harness',
      'test/fixtures/console/harness.yaml',
    );
    await page.click('#trials tr[data-task="fix-sum"] button[data-trial]');
    const label = await page.textContent('#trace-panel .output-label');
    expect(label).toBe('Output of ac-01 (failed)');
    const block = await page.$eval('#trace-panel .output-label + div pre', (p) => p.textContent ?? '');
    expect(block).toContain('not ok 1 - adds small numbers');
    expect(problems).toEqual([]);
  });
});
