import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/util/unified-diff.ts';

/** Applies a unified diff to `before`, as `patch` would: the check that the diff is right. */
function apply(before: string, diff: string): string {
  const old = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let at = 0;
  const lines = diff.split('\n').slice(2);
  for (let i = 0; i < lines.length; i++) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i] ?? '');
    if (header === null) continue;
    const start = Number(header[2]) === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (at < start) out.push(old[at++]!);
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith('@@'); i++) {
      const line = lines[i] ?? '';
      if (line === '' && i === lines.length - 1) break;
      if (line.startsWith(' ')) {
        out.push(line.slice(1));
        at++;
      } else if (line.startsWith('-')) at++;
      else if (line.startsWith('+')) out.push(line.slice(1));
    }
    i--;
  }
  while (at < old.length) out.push(old[at++]!);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

describe('unifiedDiff', () => {
  it('writes `diff -u` hunks with three lines of context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n') + '\n';
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i', 'j', 'k'].join('\n') + '\n';
    expect(unifiedDiff('src/x.ts', before, after)).toBe(
      [
        '--- a/src/x.ts',
        '+++ b/src/x.ts',
        '@@ -2,9 +2,10 @@',
        ' b',
        ' c',
        ' d',
        '-e',
        '+E',
        ' f',
        ' g',
        ' h',
        ' i',
        ' j',
        '+k',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff('x', 'same\n', 'same\n')).toBe('');
  });

  it('agrees with GNU diff on a new and a removed file', () => {
    expect(unifiedDiff('n.ts', '', 'one\ntwo\n')).toBe(
      '--- /dev/null\n+++ b/n.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n',
    );
    expect(unifiedDiff('n.ts', 'one\n', '')).toBe('--- a/n.ts\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-one\n');
  });

  it('gives a diff that patches the old text into the new one, for any texts', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 })
      .map((l) => (l.length === 0 ? '' : `${l.join('\n')}\n`));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = unifiedDiff('f', before, after);
        expect(diff === '' ? before : apply(before, diff)).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  const patch = spawnSync('patch', ['--version']).status === 0;
  if (!patch) console.warn('unifiedDiff: `patch` is not installed, so the GNU patch check is skipped');
  it('is accepted by GNU patch', () => {
    if (!patch) return;
    const dir = mkdtempSync(join(tmpdir(), 'he-diff-'));
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 3\n', 'line three\n').replace('line 30\n', '') + 'end\n';
    writeFileSync(join(dir, 'f.txt'), before);
    writeFileSync(join(dir, 'f.diff'), unifiedDiff('f.txt', before, after));
    const r = spawnSync('patch', ['-p1', '-i', 'f.diff'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(spawnSync('cat', ['f.txt'], { cwd: dir, encoding: 'utf8' }).stdout).toBe(after);
  });
});
