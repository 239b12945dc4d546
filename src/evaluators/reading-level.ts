import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import { selectTexts } from './text-fields.ts';
import { readability } from './text-measure.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.reading_level;

const round = (n: number): number => Math.round(n * 10) / 10;

/**
 * Plain-language limits: the text (a field's texts read as one) is at or below `max_grade` on the
 * Flesch-Kincaid grade scale and at or above `min_ease` on the Flesch reading-ease scale. English
 * syllables are estimated (text-measure.ts), so keep a margin of about one grade.
 */
export const readingLevel: EvaluatorDefinition<typeof options> = {
  name: 'reading_level',
  description: 'the text reads at or below a Flesch-Kincaid grade, or at or above a Flesch reading ease',
  options,
  create(opts) {
    return evaluatorFrom('reading_level', ({ output }) => {
      const selected = selectTexts(output, opts.field);
      if (!selected.ok) return binary(false, selected.reason);
      const measured = readability(selected.texts.map((t) => t.text).join('\n'));
      if (measured.words === 0) return binary(false, 'there is no text to read');
      const grade = round(measured.grade);
      const ease = round(measured.ease);
      const problems: string[] = [];
      if (opts.max_grade !== undefined && grade > opts.max_grade)
        problems.push(`grade ${grade} is above ${opts.max_grade}`);
      if (opts.min_ease !== undefined && ease < opts.min_ease)
        problems.push(`reading ease ${ease} is below ${opts.min_ease}`);
      const facts = `${measured.words} words in ${measured.sentences} sentence(s), ${round(measured.words / measured.sentences)} per sentence`;
      const details = { ...measured, grade, ease, max_grade: opts.max_grade, min_ease: opts.min_ease };
      return problems.length === 0
        ? binary(true, `grade ${grade}, reading ease ${ease} (${facts})`, details)
        : binary(false, `${problems.join('; ')} (${facts})`, details);
    });
  },
};
