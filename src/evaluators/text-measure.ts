/**
 * Measures prose the way copy constraints are written: words, sentences, characters, syllables,
 * Flesch-Kincaid grade and Flesch reading ease, and the links a text contains. Pure functions,
 * linear in the text: no pattern here can backtrack.
 */

/** Absolute http(s) links, bare or inside Markdown `[text](url)` / HTML `href="url"`. */
const URL_PATTERN = /https?:\/\/[^\s<>"'()[\]{}]+/giu;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/u;
const WORD = /[\p{L}\p{N}]+(?:['\u2019.,-][\p{L}\p{N}]+)*/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** The absolute links of a text, in order (trailing sentence punctuation is not part of a link). */
export function extractLinks(text: string): string[] {
  return [...text.matchAll(URL_PATTERN)].map((m) => m[0].replace(TRAILING_PUNCTUATION, ''));
}

/**
 * Text a reader reads: Markdown link targets and bare URLs dropped, `[text](url)` kept as text,
 * markup characters removed, and each line ending a sentence (headings and list items rarely end
 * with a full stop).
 */
export function readableText(text: string): string {
  return text
    .replace(/\[([^\]\n]*)\]\([^)\s]*\)/gu, '$1')
    .replace(URL_PATTERN, ' ')
    .replace(/[*_`#>|~]/gu, ' ')
    .split(/\r?\n/u)
    .map((line) => line.replace(/^\s*(?:[-+]|\d+[.)])\s+/u, '').trim())
    .filter((line) => line !== '')
    .map((line) => (/[.!?:;]$/u.test(line) ? line : `${line}.`))
    .join(' ');
}

/** Words: runs of letters and digits, with inner apostrophes, hyphens and decimal points ("2.0", "don't"). */
export function words(text: string): string[] {
  return readableText(text).match(WORD) ?? [];
}

/** Sentences: text ending in `.`, `!` or `?` (or a line end); at least one when there are words. */
export function sentenceCount(text: string): number {
  return readableText(text)
    .split(/[.!?]+(?=\s|$)/u)
    .filter((part) => HAS_WORD.test(part)).length;
}

/** Characters as people count them: code points, so an emoji or an accented letter is one. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * English syllables by the usual vowel-group heuristic (silent final e, -es, -ed): an estimate,
 * right for most words and within one for the rest, which is what readability formulas assume.
 */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/gu, '');
  if (w === '') return 1; // a number or a non-Latin word reads as one unit here
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|[^dt]ed|[^laeiouy]e)$/u, '').replace(/^y/u, '');
  const groups = trimmed.match(/[aeiouy]{1,2}/gu);
  return Math.max(1, groups?.length ?? 1);
}

export interface Readability {
  readonly words: number;
  readonly sentences: number;
  readonly syllables: number;
  /** Flesch-Kincaid grade level: 0.39 words/sentence + 11.8 syllables/word - 15.59. */
  readonly grade: number;
  /** Flesch reading ease: 206.835 - 1.015 words/sentence - 84.6 syllables/word (higher is easier). */
  readonly ease: number;
}

export function readability(text: string): Readability {
  const list = words(text);
  const sentenceTotal = Math.max(1, sentenceCount(text));
  const syllableTotal = list.reduce((sum, word) => sum + syllables(word), 0);
  const perSentence = list.length / sentenceTotal;
  const perWord = list.length === 0 ? 0 : syllableTotal / list.length;
  return {
    words: list.length,
    sentences: sentenceTotal,
    syllables: syllableTotal,
    grade: 0.39 * perSentence + 11.8 * perWord - 15.59,
    ease: 206.835 - 1.015 * perSentence - 84.6 * perWord,
  };
}
