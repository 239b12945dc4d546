import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOTES_LINES, notesLine, README_LINE } from '../fixtures/utf8-diff/notes-agent.mjs';
import { CHROMIUM, CHROMIUM_ARGS, describeInChromium } from '../helpers/chromium.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// A harness that writes multi-byte UTF-8 (emoji, CJK, Greek, accents) with HTML-special text into
// its workspace, run by the built CLI (`npx tsdown` first) with `-o report.html -o report.json`.
// The runner cuts the diff at 60,000 UTF-8 bytes (the text is fewer UTF-16 units: a count in
// String.length kept it whole) and the page cuts what it shows again; both cut between lines,
// count what is left out in bytes, and the page shows every character intact and escaped.
const FIXTURE = join(ROOT, 'test/fixtures/utf8-diff');
const RUNNER_LIMIT_BYTES = 60_000;

interface StoredDiff {
  files: { path: string; status: string }[];
  diff: string;
  omitted_bytes: number;
}

/** The UTF-8 bytes of the notes.md lines that `diff` (cut at a line end) does not show. */
function notesBytesNotShown(diff: string): number {
  const lines = diff.split('\n');
  const hunk = lines.findIndex((line) => line.startsWith('@@ -0,0 +1,'));
  expect(hunk).toBeGreaterThan(0);
  const body = lines.slice(hunk + 1, -1);
  expect(body).toEqual(body.map((_, i) => `+${notesLine(i)}`));
  let bytes = 0;
  for (let i = body.length; i < NOTES_LINES; i++) bytes += Buffer.byteLength(`+${notesLine(i)}\n`);
  return bytes;
}

describeInChromium('a multi-byte workspace diff through the built CLI and the HTML report', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-utf8-diff-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is cut between lines, counted in bytes, and shown with every character intact and escaped', async () => {
    await writeFile(
      join(dir, 'harness.yaml'),
      `name: utf8-notes\nversion: 1.0.0\nadapter: cli\noptions:\n  command: node\n  args: [${JSON.stringify(join(FIXTURE, 'notes-agent.mjs'))}]\n`,
    );
    const html = join(dir, 'report.html');
    const json = join(dir, 'report.json');
    const run = await cli([
      'run',
      join(FIXTURE, 'task.yaml'),
      '--harness',
      join(dir, 'harness.yaml'),
      '--no-store',
      '--no-progress',
      '-o',
      html,
      '-o',
      json,
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);

    // The runner's cut: at most 60,000 UTF-8 bytes, at a line end, the rest counted in bytes.
    const record = (JSON.parse(await readFile(json, 'utf8')) as { records: { workspace_diff: StoredDiff }[] })
      .records[0];
    const stored = record?.workspace_diff;
    if (stored === undefined) throw new Error('the record has no workspace diff');
    expect(stored.files).toEqual([
      { path: 'README.md', status: 'changed' },
      { path: 'notes.md', status: 'added' },
    ]);
    expect(Buffer.byteLength(stored.diff)).toBeLessThanOrEqual(RUNNER_LIMIT_BYTES);
    expect(stored.diff.length).toBeLessThan(RUNNER_LIMIT_BYTES);
    expect(stored.diff).toContain(`+${README_LINE}\n`);
    expect(stored.omitted_bytes).toBeGreaterThan(0);
    expect(stored.omitted_bytes).toBe(notesBytesNotShown(stored.diff));

    // The page as written: no replacement character, no half of a surrogate pair, and the agent's
    // `</script>` and `<img>` only as JSON escapes inside the data block.
    const page = await readFile(html, 'utf8');
    expect(page).not.toContain('\ufffd');
    expect(page).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    expect(page).not.toContain('<img src=x');
    expect(page.match(/<\/script>/g)?.length).toBe(page.match(/<script\b/g)?.length);
    expect(page).toContain('\\u003c/script\\u003e\\u003cb\\u003e\\u0026amp;\\u003c/b\\u003e');

    // What Chromium shows: the diff text, whole lines of intact characters, and the bytes left out
    // (by the page and by the runner) counted in UTF-8.
    const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const tab = await context.newPage();
      const problems: string[] = [];
      tab.on('pageerror', (error) => problems.push(error.message));
      tab.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await tab.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      await tab.click('#trials tr[data-task="utf8-notes"] button[data-trial]');
      const shown = (await tab.textContent('#trace-panel pre.diff')) ?? '';
      expect(shown).not.toContain('\ufffd');
      expect(shown.endsWith('\n')).toBe(true);
      expect(stored.diff.startsWith(shown)).toBe(true);
      expect(shown.length).toBeLessThan(stored.diff.length);
      expect(shown).toContain(`+${README_LINE}\n`);
      expect(shown).toContain(`+${notesLine(1)}\n`);
      const note = await tab.textContent('#trace-panel .workspace-diff p.note');
      expect(note).toBe(`(${notesBytesNotShown(shown)} more bytes of the diff not shown)`);
      expect(await tab.$$eval('#trace-panel img', (imgs) => imgs.length)).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
