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
  const reason = findDanger(root, t);
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
