import type { Task } from '../core/task.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { cannotJudge, type Verdict } from './result.ts';
import { normalizeText, outputText, preview } from './text.ts';
import type { EvaluatorDefinition, EvaluatorV1 } from './types.ts';

const options = evaluatorOptionSchemas.contains;

interface ContainsSettings {
  readonly substring?: string | undefined;
  readonly substrings?: readonly string[] | undefined;
  readonly mode: 'all' | 'any';
  readonly ignore_case: boolean;
}

/** `substring` and `substrings` together; the task's string `expected` when neither is given. */
function needlesFor(settings: ContainsSettings, task: Task): string[] | undefined {
  const listed = [
    ...(settings.substring === undefined ? [] : [settings.substring]),
    ...(settings.substrings ?? []),
  ];
  if (listed.length > 0) return listed;
  return typeof task.expected === 'string' ? [task.expected] : undefined;
}

/** Shared by `contains` and `icontains`: linear `includes` scans, so huge outputs cannot hang. */
export function containsEvaluator(name: string, settings: ContainsSettings): EvaluatorV1 {
  return evaluatorFrom(name, ({ task, output }): Verdict => {
    const needles = needlesFor(settings, task);
    if (needles === undefined) {
      return cannotJudge(
        `${name} needs a "substring" or "substrings" option, or a text "expected" on the task`,
      );
    }
    const how = { ignoreCase: settings.ignore_case };
    const haystack = normalizeText(outputText(output), how);
    const found: string[] = [];
    const missing: string[] = [];
    for (const needle of needles)
      (haystack.includes(normalizeText(needle, how)) ? found : missing).push(needle);
    const passed = settings.mode === 'all' ? missing.length === 0 : found.length > 0;
    const score = settings.mode === 'all' ? found.length / needles.length : passed ? 1 : 0;
    const quoted = (list: string[]) => list.map((s) => `"${preview(s, 80)}"`).join(', ');
    const explanation =
      needles.length === 1
        ? passed
          ? `output contains ${quoted(needles)}`
          : `output does not contain ${quoted(needles)}`
        : passed
          ? `output contains ${settings.mode === 'all' ? 'all of' : 'at least one of'} ${quoted(found)}`
          : `output is missing ${settings.mode === 'all' ? quoted(missing) : `every one of ${quoted(missing)}`}`;
    return { score, passed, explanation, details: { found, missing, mode: settings.mode } };
  });
}

/** The output contains a substring (or all / any of several). */
export const contains: EvaluatorDefinition<typeof options> = {
  name: 'contains',
  description: 'output contains a substring, or all / any of several',
  options,
  create: (opts) => containsEvaluator('contains', opts),
};
