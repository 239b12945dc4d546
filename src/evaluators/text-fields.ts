import type { AgentOutput } from '../core/agent-output.ts';
import { outputAsJson, outputText } from './text.ts';

/** One piece of text to measure, named for explanations (`headlines[2]`, `body`, `output`). */
export interface NamedText {
  readonly name: string;
  readonly text: string;
}

export type FieldSelection = { ok: true; texts: NamedText[] } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The texts a copy constraint applies to: the whole text output, or `field` of the JSON output —
 * keys joined by dots (`cta.label`), where a string is one text and an array of strings is one
 * text per element. Plain keys rather than JSONPath: nothing here runs a pattern on agent data.
 */
export function selectTexts(output: AgentOutput, field: string | undefined): FieldSelection {
  if (field === undefined) return { ok: true, texts: [{ name: 'output', text: outputText(output) }] };
  const json = outputAsJson(output);
  if (!json.ok) return { ok: false, reason: `field "${field}" needs JSON output: ${json.reason}` };
  let value: unknown = json.value;
  for (const key of field.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, key))
      return { ok: false, reason: `the output has no field "${field}"` };
    value = value[key];
  }
  if (typeof value === 'string') return { ok: true, texts: [{ name: field, text: value }] };
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return { ok: true, texts: value.map((text, i) => ({ name: `${field}[${i}]`, text })) };
  return { ok: false, reason: `field "${field}" is neither a text nor a list of texts` };
}
