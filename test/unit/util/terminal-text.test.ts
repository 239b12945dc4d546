import { describe, expect, it } from 'vitest';
import { escapeControl, truncate } from '../../../src/util/terminal-text.ts';

describe('escapeControl', () => {
  it('shows ESC, BEL, CR and C1 controls as escapes so output cannot drive the terminal', () => {
    expect(escapeControl('\u001b[31mred\u0007\r\u009b')).toBe('\\x1b[31mred\\x07\\x0d\\x9b');
  });
  it('keeps newlines and tabs, or folds them on one line', () => {
    expect(escapeControl('a\n\tb')).toBe('a\n\tb');
    expect(escapeControl('a\n\tb', { singleLine: true })).toBe('a\\n b');
  });
  it('leaves Unicode text alone', () => {
    expect(escapeControl('Renée 太郎 😀')).toBe('Renée 太郎 😀');
  });
});

describe('truncate', () => {
  it('cuts long text and says how much', () => {
    expect(truncate('abcdef', 4)).toBe('abcd… [2 more characters]');
    expect(truncate('abc', 4)).toBe('abc');
  });
});
