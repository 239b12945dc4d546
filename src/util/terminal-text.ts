/**
 * Agent output is data: before it reaches a terminal, control characters (ESC, BEL, backspace,
 * carriage return...) are shown as escapes so output cannot move the cursor, recolour or rewrite
 * the screen. Tabs and newlines are kept unless `singleLine`.
 */
export function escapeControl(text: string, options: { singleLine?: boolean } = {}): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\n') out += options.singleLine ? '\\n' : ch;
    else if (ch === '\t') out += options.singleLine ? ' ' : ch;
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0))
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out;
}

/** At most `max` characters, with a note of how many were cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}
