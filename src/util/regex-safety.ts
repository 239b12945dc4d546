import regjsparser, { type AstNode } from 'regjsparser';
import { translateInlineFlags } from './regex-flags.ts';

/**
 * A static check for patterns that backtrack catastrophically (ReDoS). It flags the two shapes
 * behind almost every real case:
 * - a repeated group whose body holds an unbounded quantifier: `(a+)+`, `(a*)*`, `(\w+\s?)*`;
 * - a repeated alternation whose branches can match the same text: `(a|a)*`, `(\w|\d)+`, `(a|aa)*`.
 * It is conservative, not a proof: a pattern it calls safe can still be slow on huge inputs.
 */
export interface RegexSafety {
  readonly safe: boolean;
  readonly reason?: string;
}

type Node = AstNode<{ lookbehind: true; namedGroups: true; unicodePropertyEscape: true; modifiers: true }>;

/** A repetition count above this is treated like an unbounded one (`(a+){1,100}` explodes too). */
const LARGE_REPEAT = 10;

export function analyzeRegex(pattern: string, flags = ''): RegexSafety {
  const t = translateInlineFlags(pattern, flags);
  let root: Node;
  try {
    root = regjsparser.parse(t.source, t.flags.replace(/[^imsuyv]/g, ''), {
      lookbehind: true,
      namedGroups: true,
      unicodePropertyEscape: true,
      modifiers: true,
    }) as Node;
  } catch (error) {
    return {
      safe: false,
      reason: `invalid pattern, does not parse: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  let reason: string | undefined;
  try {
    reason = findDanger(root, t);
  } catch {
    // The walk recurses once per nesting level; a pattern nested deeper than the stack is refused.
    reason = 'the pattern is nested too deeply to check';
  }
  return reason === undefined ? { safe: true } : { safe: false, reason };
}

function repeats(q: { max?: number | undefined }): boolean {
  return q.max === undefined || q.max > LARGE_REPEAT;
}

function children(node: Node): Node[] {
  switch (node.type) {
    case 'alternative':
    case 'disjunction':
    case 'group':
    case 'quantifier':
      return node.body as Node[];
    default:
      return [];
  }
}

function containsUnbounded(node: Node): Node | undefined {
  for (const child of children(node)) {
    if (child.type === 'quantifier' && child.max === undefined) return child;
    const inner = containsUnbounded(child);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function findDanger(node: Node, t: { source: string; flags: string }): string | undefined {
  if (node.type === 'quantifier' && repeats(node)) {
    const outer = node.raw;
    const inner = containsUnbounded(node);
    if (inner !== undefined) return `nested quantifier: ${inner.raw} is repeated by ${outer}`;
    const alternation = unwrapDisjunction(node.body[0] as Node);
    const empty = alternation?.find((branch) => nullable(branch));
    if (empty !== undefined)
      return `repeated alternation with a branch that can match nothing (${empty.raw || 'empty'}) in ${outer}`;
    if (alternation !== undefined) {
      const overlap = overlappingBranches(alternation, t);
      if (overlap !== undefined)
        return `repeated alternation with overlapping branches ${overlap} in ${outer}`;
    }
  }
  for (const child of children(node)) {
    const found = findDanger(child, t);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a node can match the empty string (then repeating it can split input in endless ways). */
function nullable(node: Node): boolean {
  switch (node.type) {
    case 'quantifier':
      return node.min === 0 || nullable(node.body[0] as Node);
    case 'alternative':
      return (node.body as Node[]).every(nullable);
    case 'disjunction':
      return (node.body as Node[]).some(nullable);
    case 'group':
      return (node.body as Node[]).every(nullable);
    case 'anchor':
      return true;
    default:
      return false;
  }
}

function unwrapDisjunction(node: Node): Node[] | undefined {
  if (node.type === 'disjunction') return node.body as Node[];
  if (node.type === 'group' && node.body.length === 1) return unwrapDisjunction(node.body[0] as Node);
  return undefined;
}

/** The literal text a branch matches, when it is a plain string of characters. */
function literalText(node: Node): string | undefined {
  if (node.type === 'value') return String.fromCodePoint(node.codePoint);
  if (node.type === 'alternative') {
    let text = '';
    for (const part of node.body as Node[]) {
      const piece = literalText(part);
      if (piece === undefined) return undefined;
      text += piece;
    }
    return text;
  }
  return undefined;
}

function isSingleChar(node: Node): boolean {
  return (
    node.type === 'value' ||
    node.type === 'characterClass' ||
    node.type === 'characterClassEscape' ||
    node.type === 'dot' ||
    node.type === 'unicodePropertyEscape'
  );
}

/** Two single-character matchers overlap when some character (Latin-1 is enough in practice) matches both. */
function singleCharsOverlap(a: Node, b: Node, flags: string): boolean {
  const cleanFlags = flags.replace(/[^imsuv]/g, '');
  const ra = new RegExp(`^(?:${a.raw})$`, cleanFlags);
  const rb = new RegExp(`^(?:${b.raw})$`, cleanFlags);
  for (let code = 0; code < 256; code++) {
    const ch = String.fromCharCode(code);
    if (ra.test(ch) && rb.test(ch)) return true;
  }
  for (const node of [a, b]) {
    if (node.type === 'value') {
      const ch = String.fromCodePoint(node.codePoint);
      if (ra.test(ch) && rb.test(ch)) return true;
    }
  }
  return false;
}

function overlappingBranches(branches: Node[], t: { flags: string }): string | undefined {
  const ignoreCase = t.flags.includes('i');
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i] as Node;
      const b = branches[j] as Node;
      const pair = `${a.raw}|${b.raw}`;
      if (a.raw === b.raw) return pair;
      const sa = literalText(a);
      const sb = literalText(b);
      if (sa !== undefined && sb !== undefined) {
        // Two words can split one string two ways exactly when they commute (both powers of one word).
        const [x, y] = ignoreCase ? [sa.toLowerCase(), sb.toLowerCase()] : [sa, sb];
        if (x + y === y + x) return pair;
        continue;
      }
      const ca = singleCharOf(a);
      const cb = singleCharOf(b);
      if (ca !== undefined && cb !== undefined && singleCharsOverlap(ca, cb, t.flags)) return pair;
    }
  }
  return undefined;
}

function singleCharOf(node: Node): Node | undefined {
  if (isSingleChar(node)) return node;
  if (node.type === 'alternative' && node.body.length === 1) return singleCharOf(node.body[0] as Node);
  return undefined;
}

/** A pattern inside a larger document (a JSONPath, a JSON Schema) that is refused, and why. */
export interface PatternProblem {
  /** Where the pattern sits: the function call in a path, or the schema keyword's path. */
  readonly where: string;
  readonly pattern: string;
  readonly reason: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The first unusable regular expression in a parsed RFC 9535 JSONPath: `match()` and `search()`
 * run their pattern over the agent's data, so it must be a literal (a pattern taken from the data
 * would let the agent choose it) and pass `analyzeRegex`, like the `regex` evaluator's. The AST
 * is walked with a stack, not recursion.
 */
export function jsonPathRegexProblem(ast: unknown): PatternProblem | undefined {
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (!isObject(node)) continue;
    const name = node['name'];
    if (node['type'] === 'FunctionExpr' && (name === 'match' || name === 'search')) {
      const args = node['arguments'];
      const pattern = Array.isArray(args) ? (args[1] as unknown) : undefined;
      if (!isObject(pattern) || pattern['type'] !== 'Literal' || typeof pattern['value'] !== 'string') {
        return { where: `${name}()`, pattern: '', reason: `${name}() needs a literal pattern` };
      }
      const source = pattern['value'];
      // As the JSONPath library runs it: `match` anchors the whole value, with the `u` flag.
      const safety = analyzeRegex(name === 'match' ? `^(?:${source})$` : source, 'u');
      if (!safety.safe) return { where: `${name}()`, pattern: source, reason: safety.reason ?? 'unsafe' };
    }
    for (const value of Object.values(node)) if (isObject(value)) stack.push(value);
  }
  return undefined;
}

/** JSON Schema keywords whose strings (`pattern`) or keys (`patternProperties`) are regexes. */
export function jsonSchemaRegexProblem(schema: unknown): PatternProblem | undefined {
  const stack: { node: unknown; path: string }[] = [{ node: schema, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() ?? { node: undefined, path: '' };
    if (!isObject(node)) continue;
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    for (const [key, value] of entries) {
      const at = `${path}/${key}`;
      const patterns =
        key === 'pattern' && typeof value === 'string'
          ? [value]
          : key === 'patternProperties' && isObject(value) && !Array.isArray(value)
            ? Object.keys(value)
            : [];
      for (const pattern of patterns) {
        const safety = analyzeRegex(pattern, 'u');
        if (!safety.safe) return { where: at, pattern, reason: safety.reason ?? 'unsafe' };
      }
      if (isObject(value)) stack.push({ node: value, path: at });
    }
  }
  return undefined;
}

/** Whether a JSON Schema applies a regex to the data (then it is validated on a match worker). */
export function jsonSchemaHasPatterns(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'pattern' && typeof value === 'string') || key === 'patternProperties') return true;
      // `format: regex` compiles the data itself as a pattern.
      if (key === 'format' && value === 'regex') return true;
      if (isObject(value)) stack.push(value);
    }
  }
  return false;
}
