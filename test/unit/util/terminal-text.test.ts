import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  escapeControl,
  escapeControlExcept,
  fitToWidth,
  truncateToWidth,
} from '../../../src/util/terminal-text.ts';

describe('escapeControl', () => {
  it('makes ANSI escape sequences visible text', () => {
    expect(escapeControl('\u001b[31mred\u001b[0m')).toBe('\\x1b[31mred\\x1b[0m');
  });

  it('escapes C0, DEL, C1 (including the one-byte CSI), bidi overrides and lone surrogates', () => {
    const out = escapeControl('a\u0000b\u0007c\u007fd\u009be\u202ef\ud800g\n\t\r');
    expect(out).toBe('a\\x00b\\x07c\\x7fd\\x9be\\u202ef\\ud800g\\n\\t\\r');
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('leaves ordinary text, CJK and emoji (surrogate pairs) alone', () => {
    const text = 'héllo 日本 🎉 👨‍👩‍👧';
    expect(escapeControl(text)).toBe(text);
  });

  it('keeps the characters it is told to keep', () => {
    expect(escapeControlExcept('a\nb\u001b', '\n')).toBe('a\nb\\x1b');
  });
});

describe('displayWidth', () => {
  it('counts ASCII by length', () => {
    expect(displayWidth('hello')).toBe(5);
    expect(displayWidth('')).toBe(0);
  });

  it('counts CJK and emoji as two columns and combining marks as none', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('🎉')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
  });
});

describe('truncateToWidth', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateToWidth('abc', 3)).toBe('abc');
  });

  it('cuts with an ellipsis inside the width', () => {
    expect(truncateToWidth('abcdef', 4)).toBe('abc…');
    expect(displayWidth(truncateToWidth('abcdef', 4))).toBe(4);
  });

  it('never splits a wide character or an emoji cluster', () => {
    const cut = truncateToWidth('日本語テキスト', 6);
    expect(cut).toBe('日本…');
    expect(displayWidth(cut)).toBeLessThanOrEqual(6);
    const family = truncateToWidth('👨‍👩‍👧👨‍👩‍👧', 3);
    expect(family).toBe('👨‍👩‍👧…');
    expect(family).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('cuts huge text after reading only what fits', () => {
    expect(truncateToWidth('🎉'.repeat(1_000_000), 5)).toBe('🎉🎉…');
    expect(truncateToWidth('a'.repeat(1_000_000), 5)).toBe('aaaa…');
    expect(truncateToWidth(`abcd${'日'.repeat(10)}`, 5)).toBe('abcd…');
  });

  it('gives nothing for a width of zero or less', () => {
    expect(truncateToWidth('abc', 0)).toBe('');
  });
});

describe('fitToWidth', () => {
  it('pads to the exact width on either side', () => {
    expect(fitToWidth('ab', 4)).toBe('ab  ');
    expect(fitToWidth('ab', 4, 'right')).toBe('  ab');
    expect(fitToWidth('日本', 5)).toBe('日本 ');
    expect(displayWidth(fitToWidth('日本語テキスト', 5))).toBe(5);
  });
});
