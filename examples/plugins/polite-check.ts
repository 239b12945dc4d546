/**
 * A function for the built-in `javascript` evaluator (no registration needed):
 *   evaluators: [{ name: javascript, options: { module: ./polite-check.ts#polite, options: { word: please } } }]
 * It receives copies of the output, the task and its options; it may return a boolean, a score
 * 0..1 or { score, passed?, explanation?, details? }. A throw scores 0 with the reason.
 */
import type { AgentOutput, Task } from 'harnesseval/plugin';

export function polite(output: AgentOutput, _task: Task, options: Record<string, unknown>) {
  const word = typeof options['word'] === 'string' ? options['word'] : 'please';
  const text = typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
  const found = text.toLowerCase().includes(word.toLowerCase());
  return { score: found ? 1 : 0, explanation: found ? `says "${word}"` : `never says "${word}"` };
}
