import { type AgentOutput, outputText } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';

export interface TextNormalization {
  readonly trim?: boolean;
  readonly ignoreCase?: boolean;
}

/** NFC so that composed and decomposed accents compare equal; then trim and case-fold on request. */
export function normalizeText(text: string, how: TextNormalization = {}): string {
  let out = text.normalize('NFC');
  if (how.trim === true) out = out.trim();
  if (how.ignoreCase === true) out = out.toLowerCase();
  return out;
}

/** The expected value as text: strings as they are, anything else as JSON, undefined when absent. */
export function expectedAsText(expected: unknown): string | undefined {
  if (expected === undefined) return undefined;
  if (typeof expected === 'string') return expected;
  return JSON.stringify(expected);
}

export type JsonTarget =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** The output as JSON data: the structured output, else a non-text output, else the text parsed as JSON. */
export function outputAsJson(
  output: AgentOutput,
  prefer: 'auto' | 'structured' | 'output' = 'auto',
): JsonTarget {
  if (prefer !== 'output' && output.structured !== undefined) return { ok: true, value: output.structured };
  if (prefer === 'structured') return { ok: false, reason: 'the output has no structured part' };
  if (typeof output.output !== 'string') return { ok: true, value: output.output };
  try {
    return { ok: true, value: JSON.parse(output.output) };
  } catch (error) {
    return { ok: false, reason: `output is not JSON (${errorMessage(error)})` };
  }
}

/** The first `max` characters of a text, for explanations and details. */
export function preview(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

export { outputText };
