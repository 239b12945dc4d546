import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import { selectTexts } from './text-fields.ts';
import { characterCount, sentenceCount, words } from './text-measure.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.text_length;

const MEASURES = {
  words: (text: string) => words(text).length,
  characters: characterCount,
  sentences: sentenceCount,
} as const;

/**
 * Copy length limits: the output, or each text of a JSON field (every ad headline), has between
 * `min` and `max` words, characters (code points) or sentences. Score = texts within bounds / texts.
 */
export const textLength: EvaluatorDefinition<typeof options> = {
  name: 'text_length',
  description: 'the text (or each text of a field) has between min and max words, characters or sentences',
  options,
  create(opts) {
    const measure = MEASURES[opts.unit];
    const range = `${opts.min ?? 0}..${opts.max ?? '∞'} ${opts.unit}`;
    return evaluatorFrom('text_length', ({ output }) => {
      const selected = selectTexts(output, opts.field);
      if (!selected.ok) return binary(false, selected.reason);
      if (selected.texts.length === 0) return binary(false, `field "${opts.field}" is an empty list`);
      const measured = selected.texts.map(({ name, text }) => ({ name, size: measure(text) }));
      const outside = measured.filter(
        ({ size }) =>
          (opts.min !== undefined && size < opts.min) || (opts.max !== undefined && size > opts.max),
      );
      const details = { unit: opts.unit, min: opts.min, max: opts.max, measured };
      if (outside.length === 0) {
        const sizes = measured.map((m) => m.size).join(', ');
        return binary(
          true,
          `${measured.length === 1 ? measured[0]?.name : `${measured.length} texts`}: ${sizes} ${opts.unit}, within ${range}`,
          details,
        );
      }
      const shown = outside
        .slice(0, 5)
        .map(({ name, size }) => `${name} has ${size} ${opts.unit}`)
        .join('; ');
      const more = outside.length > 5 ? ` (and ${outside.length - 5} more)` : '';
      return {
        score: (measured.length - outside.length) / measured.length,
        passed: false,
        explanation: `outside ${range}: ${shown}${more}`,
        details,
      };
    });
  },
};
