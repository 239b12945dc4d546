import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffText, workspaceDiff } from '../../../src/runner/workspace-diff.ts';

let root = '';
let starter = '';
let workspace = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'he-wsdiff-'));
  starter = join(root, 'starter');
  workspace = join(root, 'ws');
  for (const dir of [starter, workspace]) {
    await mkdir(join(dir, 'src'), { recursive: true });
    await writeFile(join(dir, 'src/a.ts'), 'export const a = 1;\n');
    await writeFile(join(dir, 'gone.txt'), 'bye\n');
    await writeFile(join(dir, 'same.txt'), 'same\n');
  }
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('workspaceDiff', () => {
  it('lists added, changed and removed files in path order with a unified diff, skipping unchanged and node_modules', async () => {
    await writeFile(join(workspace, 'src/a.ts'), 'export const a = 2;\n');
    await rm(join(workspace, 'gone.txt'));
    await writeFile(join(workspace, 'new.md'), 'hi\n');
    await mkdir(join(workspace, 'node_modules/x'), { recursive: true });
    await writeFile(join(workspace, 'node_modules/x/index.js'), 'installed\n');
    const diff = await workspaceDiff(starter, workspace);
    expect(diff.files).toEqual([
      { path: 'gone.txt', status: 'removed' },
      { path: 'new.md', status: 'added' },
      { path: 'src/a.ts', status: 'changed' },
    ]);
    expect(diff.diff).toBe(
      [
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-bye',
        '--- /dev/null',
        '+++ b/new.md',
        '@@ -0,0 +1,1 @@',
        '+hi',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,1 +1,1 @@',
        '-export const a = 1;',
        '+export const a = 2;',
        '',
      ].join('\n'),
    );
    expect(diff.omitted_bytes).toBe(0);
  });

  it('names binary and oversized files without their content', async () => {
    await writeFile(join(workspace, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await writeFile(join(workspace, 'big.txt'), 'x'.repeat(600 * 1024));
    const diff = await workspaceDiff(starter, workspace);
    expect(diff.diff).toContain('Binary file logo.png added\n');
    expect(diff.diff).toMatch(/File big\.txt added \(614400 bytes, too large to show\)\n/);
    expect(diff.diff).not.toContain('xxxx');
  });

  it('cuts at a line end past the size limit and says how much is left out', async () => {
    await writeFile(
      join(workspace, 'long.txt'),
      Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n'),
    );
    const full = await workspaceDiff(starter, workspace);
    const cut = await workspaceDiff(starter, workspace, { maxBytes: 500 });
    expect(cut.diff.length).toBeLessThanOrEqual(500);
    expect(cut.diff.endsWith('\n')).toBe(true);
    expect(cut.diff.length + cut.omitted_bytes).toBe(full.diff.length);
    expect(full.diff.startsWith(cut.diff)).toBe(true);
    expect(diffText(cut)).toContain(`[... ${cut.omitted_bytes} more bytes of diff not shown]`);
  });

  it('redacts the diff before it is cut or kept', async () => {
    await writeFile(join(workspace, '.env'), 'TOKEN=sk-live-abcdef123\n');
    const diff = await workspaceDiff(starter, workspace, {
      redact: (t) => t.replaceAll('sk-live-abcdef123', '[REDACTED:T]'),
    });
    expect(diff.diff).toContain('+TOKEN=[REDACTED:T]');
    expect(diff.diff).not.toContain('sk-live');
  });

  it('an unchanged workspace and a missing one read as no change and as every file removed', async () => {
    expect(diffText(await workspaceDiff(starter, workspace))).toBe('(no files changed)');
    const missing = await workspaceDiff(starter, join(root, 'nope'));
    expect(missing.files.map((f) => f.status)).toEqual(['removed', 'removed', 'removed']);
  });
});

describe('diffText', () => {
  it('lists the files before the diff', () => {
    expect(
      diffText({ files: [{ path: 'a', status: 'added' }], diff: '--- /dev/null\n', omitted_bytes: 0 }),
    ).toBe('Files:\nadded a\n\nDiff against the starter codebase:\n--- /dev/null\n');
  });
});

describe('workspaceDiff with multi-byte text', () => {
  // 4-byte emoji, 3-byte CJK, 2-byte accents: a UTF-16 count (String.length) is wrong for all three.
  const LINE = '😀 漢字かな 你好 café — ';

  it('keeps at most maxBytes UTF-8 bytes, cut at a line end, and counts the rest in bytes', async () => {
    await writeFile(
      join(workspace, 'notes.md'),
      Array.from({ length: 80 }, (_, i) => `${LINE}${i}`).join('\n'),
    );
    const full = await workspaceDiff(starter, workspace);
    const cut = await workspaceDiff(starter, workspace, { maxBytes: 700 });
    expect(Buffer.byteLength(cut.diff)).toBeLessThanOrEqual(700);
    expect(cut.diff.endsWith('\n')).toBe(true);
    expect(full.diff.startsWith(cut.diff)).toBe(true);
    expect(Buffer.byteLength(cut.diff) + cut.omitted_bytes).toBe(Buffer.byteLength(full.diff));
    expect(cut.omitted_bytes).toBeGreaterThan(full.diff.length - cut.diff.length);
  });

  it('a text under the limit in UTF-16 units but over it in bytes is cut', async () => {
    await writeFile(join(workspace, 'cjk.txt'), `${'漢'.repeat(300)}\n`);
    const full = await workspaceDiff(starter, workspace);
    expect(full.diff.length).toBeLessThan(600);
    const cut = await workspaceDiff(starter, workspace, { maxBytes: 600 });
    expect(cut.omitted_bytes).toBe(Buffer.byteLength(full.diff) - Buffer.byteLength(cut.diff));
    expect(cut.omitted_bytes).toBeGreaterThan(0);
  });

  it('one line longer than the limit is cut between characters, never inside one', async () => {
    await writeFile(join(workspace, 'emoji.txt'), '😀'.repeat(400));
    const full = await workspaceDiff(starter, workspace);
    for (const maxBytes of [201, 202, 203, 204]) {
      const cut = await workspaceDiff(starter, workspace, { maxBytes });
      expect(cut.diff).not.toContain('\ufffd');
      expect(full.diff.startsWith(cut.diff)).toBe(true);
      expect(Buffer.byteLength(cut.diff)).toBeLessThanOrEqual(maxBytes);
      expect(Buffer.byteLength(cut.diff) + cut.omitted_bytes).toBe(Buffer.byteLength(full.diff));
    }
  });
});
