/** Reading the JSON the model APIs send: values that may be missing or of another type. */

/** `name: message` of an API's error object, its name the first of `names` it has (`error` if none). */
export function errorText(error: unknown, names: readonly ('type' | 'code')[]): string {
  const e = isRecord(error) ? error : {};
  let name: string | undefined;
  for (const key of names) name ??= str(e[key]);
  return `${name ?? 'error'}: ${str(e['message']) ?? ''}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The text of message content in any of the APIs' shapes (a string or a list of parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (typeof part['text'] === 'string') return part['text'];
      if (part['type'] === 'tool_result') return contentText(part['content']);
      return '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

/** Parses tool arguments sent as a JSON string; the raw text when it is not JSON. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
