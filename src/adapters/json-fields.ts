/** Reading fields of parsed JSON that comes from outside (a CLI's event stream) without trusting its shape. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function records(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** A finite, non-negative number; 0 otherwise (`null` output tokens of an interrupted stream). */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One JSON line; undefined for a blank line, an error message for anything else that is not a JSON object. */
export function parseLine(line: string): { value: JsonRecord } | { error: string } | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? { value } : { error: 'not a JSON object' };
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Long tool output is cut for the record: the trace is for reading, not for replaying. */
export function clip(value: string, max = 4000): string {
  return value.length <= max ? value : `${value.slice(0, max)}… [${value.length - max} more characters]`;
}

/** The text of a tool result's content (a string, or a list of text parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .map((part) => text(part['text']) ?? '')
    .filter((t) => t !== '')
    .join('\n');
}
