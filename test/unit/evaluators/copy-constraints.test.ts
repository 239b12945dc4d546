/** The copy-constraint evaluators: text_length, reading_level and links (and their text measures). */
import { describe, expect, it } from 'vitest';
import { safeCheckEvaluatorRef } from '../../../src/evaluators/index.ts';
import {
  characterCount,
  extractLinks,
  readability,
  readableText,
  sentenceCount,
  syllables,
  words,
} from '../../../src/evaluators/text-measure.ts';
import { errored, huge, judge } from './helpers.ts';

const ad = {
  headlines: ['Sync your books offline', 'Ledgerly Sync 2.0 is here', 'Every ledger, every device, always'],
  body: 'Your books stay in sync. Even offline.',
  cta: { href: 'https://ledgerly.example/sync?utm_source=ads' },
};

describe('text measures', () => {
  it('count words with inner apostrophes, hyphens and decimals, and ignore link targets', () => {
    expect(words("Don't miss Sync 2.0 — it's built-in!")).toEqual([
      "Don't",
      'miss',
      'Sync',
      '2.0',
      "it's",
      'built-in',
    ]);
    expect(words('Read [the notes](https://x.example/a-b-c) or https://y.example/q?x=1 today')).toEqual([
      'Read',
      'the',
      'notes',
      'or',
      'today',
    ]);
    expect(words('')).toEqual([]);
  });

  it('count sentences by their end marks and by lines (headings and bullets)', () => {
    expect(sentenceCount('One. Two? Three! Version 2.0 ships.')).toBe(4);
    expect(sentenceCount('# Heading\n- first bullet\n- second bullet\nA sentence.')).toBe(4);
    expect(sentenceCount('')).toBe(0);
    expect(readableText('## Title\n* [Buy](https://a.example) now')).toBe('Title. Buy now.');
  });

  it('count characters as code points: an emoji or an accent is one', () => {
    expect(characterCount('Zoë 🦊')).toBe(5);
  });

  it('estimate syllables the usual way', () => {
    expect(['cat', 'table', 'simple', 'jumped', 'wanted', 'readability', 'syllable'].map(syllables)).toEqual([
      1, 2, 2, 1, 2, 5, 3,
    ]);
  });

  it('compute Flesch-Kincaid grade and reading ease from the textbook formulas', () => {
    const easy = readability('The cat sat on the mat.');
    expect(easy).toMatchObject({ words: 6, sentences: 1, syllables: 6 });
    expect(easy.grade).toBeCloseTo(0.39 * 6 + 11.8 * 1 - 15.59, 10);
    expect(easy.ease).toBeCloseTo(206.835 - 1.015 * 6 - 84.6 * 1, 10);
    const hard = readability(
      'Organizations leveraging comprehensive synchronization capabilities experience unprecedented operational efficiencies.',
    );
    expect(hard.grade).toBeGreaterThan(20);
  });

  it('find bare, Markdown and HTML links without trailing punctuation', () => {
    expect(
      extractLinks(
        'See [x](https://a.example/x?u=1). Or https://b.example/y, or <a href="http://c.example/">c</a>.',
      ),
    ).toEqual(['https://a.example/x?u=1', 'https://b.example/y', 'http://c.example/']);
  });

  it('stay linear on a huge text', () => {
    expect(words(huge).length).toBe(1);
    expect(extractLinks(huge)).toEqual([]);
  });
});

describe('text_length', () => {
  it('passes a text within bounds and says how long it is', async () => {
    const result = await judge(
      'text_length',
      { unit: 'words', min: 5, max: 10 },
      { output: { output: 'One two three four five six.' } },
    );
    expect(result).toMatchObject({ passed: true, score: 1 });
    expect(result.explanation).toBe('output: 6 words, within 5..10 words');
  });

  it('measures each text of a list field and names the ones outside', async () => {
    const result = await judge(
      'text_length',
      { unit: 'characters', max: 30, field: 'headlines' },
      { output: { output: ad } },
    );
    expect(result.passed).toBe(false);
    expect(result.score).toBeCloseTo(2 / 3, 10);
    expect(result.explanation).toBe('outside 0..30 characters: headlines[2] has 34 characters');
  });

  it('reads a nested field of JSON text output, and fails a missing or non-text field', async () => {
    const text = JSON.stringify(ad);
    expect(
      (await judge('text_length', { unit: 'sentences', max: 2, field: 'body' }, { output: { output: text } }))
        .passed,
    ).toBe(true);
    expect(
      (await judge('text_length', { max: 2, field: 'cta.label' }, { output: { output: ad } })).explanation,
    ).toBe('the output has no field "cta.label"');
    expect(
      (await judge('text_length', { max: 2, field: 'cta' }, { output: { output: ad } })).explanation,
    ).toBe('field "cta" is neither a text nor a list of texts');
    expect(
      (await judge('text_length', { max: 2, field: 'body' }, { output: { output: 'plain text' } }))
        .explanation,
    ).toMatch(/^field "body" needs JSON output: output is not JSON/);
    expect(
      (await judge('text_length', { max: 2, field: 'none' }, { output: { output: { none: [] } } }))
        .explanation,
    ).toBe('field "none" is an empty list');
  });

  it('fails an errored output and refuses options without a bound', async () => {
    expect((await judge('text_length', { max: 5 }, { output: errored })).passed).toBe(false);
    const bad = safeCheckEvaluatorRef({ name: 'text_length', options: { unit: 'words' }, negate: false });
    expect(bad.ok).toBe(false);
    expect(String(!bad.ok && bad.error.message)).toContain('give min, max or both');
    expect(
      safeCheckEvaluatorRef({ name: 'text_length', options: { min: 9, max: 3 }, negate: false }).ok,
    ).toBe(false);
    expect(
      safeCheckEvaluatorRef({ name: 'text_length', options: { max: 3, field: 'a..b' }, negate: false }).ok,
    ).toBe(false);
  });
});

describe('reading_level', () => {
  it('passes plain copy and fails dense copy with the grade and why', async () => {
    const plain = await judge(
      'reading_level',
      { max_grade: 8, min_ease: 60 },
      { output: { output: 'Your books stay in sync. Even when you are offline. Try it free.' } },
    );
    expect(plain.passed, plain.explanation).toBe(true);
    expect(plain.explanation).toMatch(
      /^grade -?\d+(\.\d)?, reading ease \d+(\.\d)? \(13 words in 3 sentence\(s\), 4.3 per sentence\)$/,
    );
    const dense = await judge(
      'reading_level',
      { max_grade: 8 },
      {
        output: {
          output:
            'Organizations leveraging comprehensive synchronization capabilities experience unprecedented operational efficiencies across heterogeneous infrastructures.',
        },
      },
    );
    expect(dense.passed).toBe(false);
    expect(dense.explanation).toMatch(/^grade \d+(\.\d)? is above 8 \(/);
  });

  it('reads the texts of a field together, and fails an empty text', async () => {
    expect(
      (await judge('reading_level', { max_grade: 8, field: 'headlines' }, { output: { output: ad } })).passed,
    ).toBe(true);
    expect((await judge('reading_level', { max_grade: 8 }, { output: { output: '   ' } })).explanation).toBe(
      'there is no text to read',
    );
    expect(safeCheckEvaluatorRef({ name: 'reading_level', options: {}, negate: false }).ok).toBe(false);
  });
});

describe('links', () => {
  const copy =
    'Start at [Ledgerly](https://ledgerly.example/sync?utm_source=email) or https://www.ledgerly.example/help.';

  it('passes when the required links are there and every link is on an allowed host over https', async () => {
    const result = await judge(
      'links',
      {
        required: ['https://ledgerly.example/sync?utm_source=email'],
        allowed_hosts: ['ledgerly.example'],
        https_only: true,
        min: 1,
        max: 2,
      },
      { output: { output: copy } },
    );
    expect(result.passed, result.explanation).toBe(true);
    expect(result.details['links']).toEqual([
      'https://ledgerly.example/sync?utm_source=email',
      'https://www.ledgerly.example/help',
    ]);
  });

  it('names each broken rule: a missing link, a foreign host, plain http, too many links', async () => {
    const result = await judge(
      'links',
      {
        required: ['https://ledgerly.example/pricing'],
        allowed_hosts: ['ledgerly.example'],
        https_only: true,
        max: 1,
      },
      { output: { output: `${copy} Compare: http://competitor.example/vs` } },
    );
    expect(result.passed).toBe(false);
    expect(result.explanation).toBe(
      'missing https://ledgerly.example/pricing; competitor.example is not an allowed host (http://competitor.example/vs); not https: http://competitor.example/vs; 3 link(s), more than 1',
    );
    // A look-alike host is not a subdomain.
    const lookalike = await judge(
      'links',
      { allowed_hosts: ['ledgerly.example'] },
      { output: { output: 'https://evilledgerly.example/x' } },
    );
    expect(lookalike.passed).toBe(false);
  });

  it('checks only the field it is given, and counts no links as none', async () => {
    expect((await judge('links', { min: 1, field: 'body' }, { output: { output: ad } })).explanation).toBe(
      '0 link(s), fewer than 1',
    );
    expect((await judge('links', { max: 0 }, { output: { output: 'no links here' } })).passed).toBe(true);
    expect(
      safeCheckEvaluatorRef({ name: 'links', options: { required: ['not a url'] }, negate: false }).ok,
    ).toBe(false);
  });
});
