/**
 * Escapes text for HTML element content and quoted attribute values. Lone surrogates become U+FFFD,
 * as writing UTF-8 would do anyway, so the returned page and the written file are the same text.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c).replace(LONE_SURROGATE, '\ufffd');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Serialises data for `<script type="application/json">`. `<`, `>` and `&` become \u003c etc. so
 * agent text containing `</script>` or `<!--` cannot end the element; U+2028/U+2029 are escaped
 * because older JavaScript parsers treat them as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export interface Truncated {
  readonly text: string;
  /** Characters left out, 0 when the text was kept whole. */
  readonly omitted: number;
}

/** Cuts text to `limit` UTF-16 units without splitting a surrogate pair. */
export function truncateText(text: string, limit: number): Truncated {
  if (text.length <= limit) return { text, omitted: 0 };
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), omitted: text.length - end };
}
