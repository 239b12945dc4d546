/**
 * A user evaluator: the text output has at most `max_words` words.
 * Register it before loading a suite that names it: `registerEvaluator(wordLimit)`.
 */
import { binary, defineEvaluator, optionsSchema, outputText, toResult, z } from 'harnesseval/plugin';

export const wordLimit = defineEvaluator({
  name: 'word_limit',
  description: 'the output has at most max_words words',
  options: optionsSchema({ max_words: z.number().int().positive() }),
  create(opts) {
    return {
      specificationVersion: 'v1',
      name: 'word_limit',
      async evaluate({ output }) {
        const words = outputText(output)
          .split(/\s+/)
          .filter((w) => w !== '').length;
        // toResult builds a schema-valid EvaluationResult (score clamped to 0..1).
        return toResult(
          'word_limit',
          binary(words <= opts.max_words, `${words} words (limit ${opts.max_words})`, { words }),
        );
      },
    };
  },
});
