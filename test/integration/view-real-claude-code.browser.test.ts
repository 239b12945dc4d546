import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/run-record.ts';
import { openStore } from '../../src/store/index.ts';
import { chromiumPage, describeInChromium } from '../helpers/chromium.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';
import { type ScriptFigures, scriptFigures } from '../helpers/script-figures.ts';
import { startViewerCli, type ViewerProcess } from '../helpers/viewer-store.ts';

/**
 * `harnesseval view` in Chromium over the store of a real Claude Code run (the pinned CLI in
 * .tools/agents, offline through the gateway's scripted model): the trace of the trial shows the
 * script's agent and tool calls, the gateway's tokens and cost, and the files Claude Code changed.
 */
const BIN = join(ROOT, '.tools/agents/node_modules/.bin');
const CLAUDE = join(BIN, 'claude');
const TASK = 'bug-fix-regression';
const SCRIPT = 'examples/claude-code/scripts/bug-fix-regression.yaml';
const MODEL = 'claude-sonnet-4-5';
const MISSING = `${CLAUDE} is missing: run .ci/install-tools to install the pinned Claude Code`;

/** Run with Claude Code installed; without it CI fails and elsewhere the suite is skipped, saying why. */
function describeWithClaudeCode(title: string, body: () => void): void {
  if (existsSync(CLAUDE)) describeInChromium(title, body);
  else if (process.env['CI'])
    describe(title, () => {
      it('needs Claude Code in CI', () => {
        throw new Error(MISSING);
      });
    });
  else {
    console.warn(`skipping "${title}": ${MISSING}`);
    describe.skip(`${title} (skipped: ${MISSING})`, () => {
      it('runs Claude Code', () => {});
    });
  }
}

/** The viewer's own number formats (client-script.ts `num` and `usd`). */
const num = (value: number, digits = 3) => String(Number(value.toPrecision(digits)));
const usd = (value: number) => `$${num(value)}`;

describeWithClaudeCode('viewer over a real Claude Code run, in Chromium', () => {
  let dir: string;
  let store: string;
  let experimentId: string;
  let record: RunRecord;
  let figures: ScriptFigures;
  let viewer: ViewerProcess;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-view-claude-'));
    store = join(dir, 'store.db');
    const env = { PATH: `${BIN}:${process.env['PATH']}` };
    const args = ['run', 'suites/product-dev/suite.yaml', '--filter-id', TASK];
    const run = await cli(
      [...args, '--harness', 'examples/claude-code/harness.yaml', '--store', store, '--no-progress'],
      ROOT,
      env,
    );
    expect(run.status, run.stderr).toBe(0);
    const reader = await openStore(store, { readonly: true });
    try {
      const [summary] = await reader.listExperiments();
      experimentId = summary?.id ?? '';
      const [stored] = await reader.listRecords(experimentId);
      if (stored === undefined) throw new Error(`no record in ${store}: ${run.stderr}`);
      record = stored;
    } finally {
      await reader.close();
    }
    figures = await scriptFigures(SCRIPT, MODEL);
    viewer = await startViewerCli(store);
    ({ context, page, problems } = await chromiumPage(join(dir, 'profile')));
    await page.goto(viewer.url, { waitUntil: 'load' });
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await viewer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the trial: the script’s agent and tool calls, the gateway’s tokens and cost, the diff Claude Code made', async () => {
    // The store holds what the run recorded: the script's calls, priced by the gateway.
    // Its rubric criteria wait for a grade; the automated ones (the task's tests) passed.
    expect(record.error).toBeUndefined();
    const automated = record.criteria.filter((c) => c.verification === 'automated');
    expect(automated.map((c) => c.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(record.trace.agent_calls.every((c) => c.metadata['source'] === 'gateway')).toBe(true);
    const cost = figures.calls.reduce((s, c) => s + c.cost, 0);
    expect(record.cost_usd).toBeCloseTo(cost, 10);

    const response = await page.goto(`${viewer.origin}/experiments/${experimentId}`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.textContent('h1')).toContain('claude-code');
    await page.click(`#trials tr[data-task="${TASK}"] a[data-trace-src$="/0.json"]`);
    await page.waitForSelector('#trace-panel:not([hidden]) .workspace-diff');
    const panel = page.locator('#trace-panel');
    expect(await panel.locator('h2').first().textContent()).toContain(`Trace: ${TASK} (epoch 0)`);
    expect(await panel.locator('p.meta').first().textContent()).toContain(` · ${usd(cost)} · `);

    const part = (title: string) =>
      panel.locator('.trace-part', { has: page.locator(`h3:text-is("${title}")`) });
    const rows = async (title: string, columns: number) =>
      (await part(title).locator('tbody tr').all()).map(async (row) =>
        (await row.locator('td').allTextContents()).slice(0, columns),
      );
    // One row per model call the gateway recorded, with the script's tokens and cost.
    expect(await Promise.all(await rows('Agent calls', 5))).toEqual(
      figures.calls.map((c) => ['main', MODEL, num(c.tokens_in, 6), num(c.tokens_out, 6), usd(c.cost)]),
    );
    expect(await Promise.all(await rows('Agent calls by role', 4))).toEqual([
      [
        'main',
        String(figures.calls.length),
        num(
          figures.calls.reduce((s, c) => s + c.tokens_in, 0),
          6,
        ),
        num(
          figures.calls.reduce((s, c) => s + c.tokens_out, 0),
          6,
        ),
      ],
    ]);
    // The tool calls Claude Code ran, by the script's names, each with its arguments.
    const tools = await Promise.all(await rows('Tool calls', 2));
    expect(tools).toEqual(figures.tools.map((name) => [name, 'success']));
    expect(figures.tools).toEqual(['Read', 'Read', 'Edit', 'Edit', 'Bash']);
    expect(
      await part('Tool calls').locator('tbody tr').nth(2).locator('pre').first().textContent(),
    ).toContain('Math.ceil(items.length / pageSize)');

    // The workspace diff: the files Claude Code edited, and its fix in the diff.
    expect(await panel.locator('.workspace-diff tbody td').allTextContents()).toEqual([
      'changed',
      'src/paginate.ts',
      'changed',
      'test/paginate.test.ts',
    ]);
    const diff = (await panel.locator('pre.diff').textContent()) ?? '';
    expect(diff).toContain('-  const totalPages = Math.floor(items.length / pageSize);');
    expect(diff).toContain('+  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));');
    expect(diff).toContain("+test('regression #212: a partial last page is counted and reachable'");
    expect(problems).toEqual([]);
  }, 60_000);
});
