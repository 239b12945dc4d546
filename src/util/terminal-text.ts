/**
 * Text from agents and user files is data: before it reaches a terminal it must not be able to
 * move the cursor, recolour the screen or reorder what is shown. These helpers make it inert and
 * measure it the way a terminal does (CJK and emoji take two columns, combining marks none).
 */

// C0 controls, DEL, C1 controls (0x9B is a one-byte CSI on some terminals), bidi overrides and
// isolates (they reorder what the reader sees), line/paragraph separators, and lone surrogates.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\x1b' };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Makes text safe to print on one line: every control character (ESC included, so ANSI sequences
 * show as `\x1b[31m`), bidi control and lone surrogate becomes a visible escape.
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** Like `escapeControl`, but keeps the given characters (e.g. '\n\t' for multi-line bodies). */
export function escapeControlExcept(text: string, keep: string): string {
  return text.replace(UNSAFE, (ch) => (keep.includes(ch) ? ch : escapeOne(ch)));
}

// Created on first use: building a segmenter loads ICU data (~20 ms), which commands that never
// measure text should not pay for at start-up.
let cachedSegmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Intl.Segments {
  cachedSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return cachedSegmenter.segment(text);
}
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\ufe0f|[\u{1f1e6}-\u{1f1ff}]/u;

// East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11), coarse but covering the scripts
// that agents actually print: Hangul, CJK, kana, fullwidth forms.
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1b000, 0x1b2ff],
  [0x20000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  for (const [lo, hi] of WIDE_RANGES) {
    if (codePoint < lo) return false;
    if (codePoint <= hi) return true;
  }
  return false;
}

/** Columns one grapheme cluster takes in a terminal. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme) && EMOJI_PRESENTATION.test(grapheme)) return 2;
  const first = grapheme.codePointAt(0) ?? 0;
  if (first < 0x20 || (first >= 0x7f && first < 0xa0)) return 0;
  return isWide(first) ? 2 : 1;
}

/** Terminal columns of (already escaped) text. */
export function displayWidth(text: string): number {
  // Plain ASCII is the common case and needs no segmentation.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment);
  return width;
}

/**
 * Cuts text to at most `max` columns, ending with `…` when something was cut. Never splits a
 * grapheme, and reads only as far as the width: a 10 MB output costs no more than a short one.
 */
export function truncateToWidth(text: string, max: number): string {
  if (max <= 0) return '';
  if (/^[\x20-\x7e]*$/.test(text.slice(0, max + 1))) {
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
  }
  let kept = '';
  let width = 0;
  let fitsBeforeEllipsis: string | undefined;
  for (const { segment } of graphemes(text)) {
    const w = graphemeWidth(segment);
    if (fitsBeforeEllipsis === undefined && width + w > max - 1) fitsBeforeEllipsis = kept;
    width += w;
    if (width > max) return `${fitsBeforeEllipsis ?? kept}…`;
    kept += segment;
  }
  return text;
}

/** Pads (or truncates) text to exactly `width` columns. */
export function fitToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncateToWidth(text, width);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** At most `max` characters, with a note of how many were cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}
