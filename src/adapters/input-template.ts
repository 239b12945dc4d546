import type { TaskInput } from '../core/task.ts';

/** The placeholder that HTTP bodies and CLI arguments use for the task input. */
export const INPUT_PLACEHOLDER = '{{input}}';

/** The input as text: strings as they are, objects as JSON. */
export function inputText(input: TaskInput): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** Replaces every placeholder inside a string with the input as text (`$` in the input is literal). */
export function fillText(template: string, input: TaskInput): string {
  return template.replaceAll(INPUT_PLACEHOLDER, () => inputText(input));
}

/**
 * Fills a JSON body template: a string that is exactly `"{{input}}"` becomes the input itself
 * (an object stays an object), a placeholder inside a longer string becomes the input as text.
 */
export function fillJsonTemplate(template: unknown, input: TaskInput): unknown {
  if (template === INPUT_PLACEHOLDER) return input;
  if (typeof template === 'string') return fillText(template, input);
  if (Array.isArray(template)) return template.map((item) => fillJsonTemplate(item, input));
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, fillJsonTemplate(value, input)]),
    );
  }
  return template;
}
