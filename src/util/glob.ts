/**
 * Globs for `--filter-id`: `*` (any run of characters), `?` (one character), `[abc]`, `[a-z]`
 * and `[!abc]` (a set), `\` escapes. Nothing else is special.
 */
type Token =
  | { readonly kind: 'star' }
  | { readonly kind: 'any' }
  | { readonly kind: 'char'; readonly char: string }
  | {
      readonly kind: 'set';
      readonly negated: boolean;
      readonly ranges: ReadonlyArray<readonly [string, string]>;
    };

function tokenize(glob: string): Token[] {
  const chars = Array.from(glob);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    if (char === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '?') tokens.push({ kind: 'any' });
    else if (char === '\\' && i + 1 < chars.length) {
      i += 1;
      tokens.push({ kind: 'char', char: chars[i] ?? '' });
    } else if (char === '[') {
      const close = chars.indexOf(']', i + 2);
      if (close === -1) {
        tokens.push({ kind: 'char', char });
        continue;
      }
      let body = chars.slice(i + 1, close);
      const negated = body[0] === '!' || body[0] === '^';
      if (negated) body = body.slice(1);
      const ranges: Array<readonly [string, string]> = [];
      for (let j = 0; j < body.length; j += 1) {
        const from = body[j] ?? '';
        if (body[j + 1] === '-' && j + 2 < body.length) {
          ranges.push([from, body[j + 2] ?? '']);
          j += 2;
        } else ranges.push([from, from]);
      }
      tokens.push({ kind: 'set', negated, ranges });
      i = close;
    } else tokens.push({ kind: 'char', char });
  }
  return tokens;
}

function accepts(token: Token, char: string): boolean {
  switch (token.kind) {
    case 'star':
    case 'any':
      return true;
    case 'char':
      return token.char === char;
    case 'set':
      return token.ranges.some(([from, to]) => char >= from && char <= to) !== token.negated;
    default: {
      const unreachable: never = token;
      return unreachable;
    }
  }
}

/**
 * Compiles a glob into a whole-string matcher. It simulates the pattern as a set of states, so
 * it runs in O(text × pattern) whatever the input — no backtracking blow-up on `*a*a*a*b`.
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const tokens = tokenize(glob);
  // closure: a star may match nothing, so a state on a star also stands on the next token.
  const close = (states: Set<number>): Set<number> => {
    for (const state of states) if (tokens[state]?.kind === 'star') states.add(state + 1);
    return states;
  };
  return (text: string): boolean => {
    let states = close(new Set([0]));
    for (const char of text) {
      const next = new Set<number>();
      for (const state of states) {
        const token = tokens[state];
        if (token === undefined || !accepts(token, char)) continue;
        next.add(token.kind === 'star' ? state : state + 1);
      }
      if (next.size === 0) return false;
      states = close(next);
    }
    return states.has(tokens.length);
  };
}

/**
 * The same glob as an anchored RegExp, for display and for callers that need one. Prefer
 * `compileGlob` on untrusted input: a backtracking engine can be slow on many `*`s.
 */
export function globToRegExp(glob: string): RegExp {
  const escapeLiteral = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const escapeInSet = (s: string): string => s.replace(/[\\\]^[-]/g, '\\$&');
  const source = tokenize(glob)
    .map((token) => {
      switch (token.kind) {
        case 'star':
          return '[^]*';
        case 'any':
          return '[^]';
        case 'char':
          return escapeLiteral(token.char);
        case 'set':
          return `[${token.negated ? '^' : ''}${token.ranges.map(([a, b]) => (a === b ? escapeInSet(a) : `${escapeInSet(a)}-${escapeInSet(b)}`)).join('')}]`;
        default: {
          const unreachable: never = token;
          return unreachable;
        }
      }
    })
    .join('');
  return new RegExp(`^${source}$`, 'u');
}
