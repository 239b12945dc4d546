import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../src/reporters/console.ts';
import { CSV_HEADER, neutralizeFormula, renderCsv } from '../../../src/reporters/csv.ts';
import { renderJunit } from '../../../src/reporters/junit.ts';
import { renderMarkdown } from '../../../src/reporters/markdown.ts';
import { displayWidth, escapeControlExcept } from '../../../src/util/terminal-text.ts';
import { parseCsv } from './csv-reader.ts';
import { evaluation, experiment, record } from './experiment-factory.ts';

/** Any text, weighted towards what breaks reporters. */
const nasty = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      ',',
      '"',
      "'",
      '\n',
      '\r',
      '|',
      '<',
      '>',
      '&',
      ']]>',
      '\u001b[31m',
      '=',
      '🎉',
      '日',
      '\ud800',
    ),
    maxLength: 20,
  }),
);

function trialsFrom(texts: readonly string[]) {
  return experiment({
    records: texts.map((text, i) =>
      record({
        task_id: `t${i}-${text}`,
        outcome: i % 2 === 0 ? 'error' : 'fail',
        ...(i % 2 === 0 ? { error: text } : {}),
        evaluations: [evaluation({ passed: false, score: 0, explanation: text })],
      }),
    ),
  });
}

const texts = fc.array(nasty, { minLength: 1, maxLength: 5 });

describe('reporters on arbitrary text', () => {
  it('CSV round-trips every field, formula-guarded text cells included', () => {
    fc.assert(
      fc.property(texts, (values) => {
        const e = trialsFrom(values);
        const rows = parseCsv(renderCsv(e));
        expect(rows).toHaveLength(values.length + 1);
        e.records.forEach((r, i) => {
          expect(rows[i + 1]?.[0]).toBe(r.task_id);
          expect(rows[i + 1]?.[CSV_HEADER.indexOf('error')]).toBe(neutralizeFormula(r.error ?? ''));
        });
      }),
    );
  });

  it('JUnit is always well-formed and carries the text (controls made visible)', () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      parseTagValue: false,
      trimValues: false,
      htmlEntities: true,
      isArray: (name) => name === 'testcase',
    });
    fc.assert(
      fc.property(texts, (values) => {
        const xml = renderJunit(trialsFrom(values));
        expect(XMLValidator.validate(xml)).toBe(true);
        const cases = parser.parse(xml).testsuites.testsuite.testcase as Array<Record<string, unknown>>;
        expect(cases).toHaveLength(values.length);
        values.forEach((text, i) => {
          if (i % 2 !== 0) return;
          const expected = escapeControlExcept(text, '\n\r\t').replace(/[\ufffe\uffff]/g, '');
          const body = (cases[i]?.['error'] as { '#text'?: string } | undefined)?.['#text'] ?? '';
          expect(body).toBe(expected);
        });
      }),
    );
  });

  it('markdown tables keep their columns', () => {
    fc.assert(
      fc.property(texts, (values) => {
        const md = renderMarkdown(trialsFrom(values));
        const rows = md.split('\n').filter((l) => l.startsWith('|'));
        expect(rows).toHaveLength(2 + values.length);
        for (const row of rows) expect(row.slice(1, -1).split(/(?<!\\)\|/)).toHaveLength(4);
        expect(md).not.toMatch(/<[a-z/]/i);
      }),
    );
  });

  it('the console never overflows its width nor prints a raw control character', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 40, max: 200 }), (values, width) => {
        const text = renderConsole(trialsFrom(values), { width });
        for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(width);
        expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      }),
    );
  });
});
