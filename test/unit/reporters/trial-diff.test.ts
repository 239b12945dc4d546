import { describe, expect, it } from 'vitest';
import { DIFF_SHOWN, trialDiff } from '../../../src/reporters/html/trial-diff.ts';

describe('trialDiff', () => {
  it('counts the bytes not shown in UTF-8, emoji and CJK included, plus those the run left out', () => {
    const line = '+😀 漢字かな 你好 café\n';
    const text = `--- /dev/null\n+++ b/notes.md\n${line.repeat(Math.ceil((DIFF_SHOWN * 1.5) / line.length))}`;
    const shown = trialDiff({
      files: [{ path: 'notes.md', status: 'added' }],
      diff: text,
      omitted_bytes: 17,
    });
    expect(shown.text.length).toBeLessThanOrEqual(DIFF_SHOWN);
    expect(shown.text.endsWith('\n')).toBe(true);
    expect(text.startsWith(shown.text)).toBe(true);
    expect(shown.omitted_bytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(shown.text) + 17);
    expect(shown.omitted_bytes).toBeGreaterThan(text.length - shown.text.length + 17);
    expect(shown.open).toBe(false);
  });

  it('a short multi-byte diff is whole, open and counts nothing left out', () => {
    const text = '--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-hello\n+こんにちは 👋\n';
    const shown = trialDiff({ files: [{ path: 'x', status: 'changed' }], diff: text, omitted_bytes: 0 });
    expect(shown).toMatchObject({ text, omitted_bytes: 0, open: true, lines: 6 });
  });
});
