/**
 * Datasets written for Python or PCRE put flags inline: `(?i)hello.*grace`. JavaScript has no
 * leading inline-flag group, so a leading `(?i)`, `(?s)`, `(?m)` (or a combination such as
 * `(?is)`) becomes a RegExp flag and is removed from the source.
 */
export interface TranslatedRegex {
  readonly source: string;
  readonly flags: string;
}

const LEADING_FLAGS = /^\(\?([ims]+)\)/;

export function translateInlineFlags(pattern: string, flags = ''): TranslatedRegex {
  let source = pattern;
  const seen = new Set(flags);
  for (let m = LEADING_FLAGS.exec(source); m !== null; m = LEADING_FLAGS.exec(source)) {
    for (const f of m[1] ?? '') seen.add(f);
    source = source.slice(m[0].length);
  }
  return { source, flags: [...seen].sort().join('') };
}

/** Compiles a user pattern (inline flags translated); throws SyntaxError when it does not compile. */
export function compileUserRegex(pattern: string, flags = ''): RegExp {
  const t = translateInlineFlags(pattern, flags);
  return new RegExp(t.source, t.flags);
}
