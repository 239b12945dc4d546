// regjsparser is CommonJS: Node gives it a default export only.
import regjsparser, { type AstNode, type CharacterClassBody } from 'regjsparser';
import { errorMessage } from '../core/errors.ts';

/**
 * A static check for patterns that can backtrack exponentially. It is conservative: it refuses
 * (1) an unbounded quantifier whose body holds another unbounded quantifier (`(a+)+`, `(\w+\s?)*`),
 * and (2) an unbounded quantifier over an alternation whose branches can start with the same
 * character, or can match nothing (`(a|a)*`, `(a|ab)*`). Some safe patterns such as `(ab|ac)*` or
 * `(\w+\s)*` are refused too; rewriting them is easy, a hung run is not.
 * Polynomial patterns (`.*x`, `a*a*b`) pass this check: callers must still bound the input and time.
 */
export function analyzeRegex(pattern: string, flags: string): { safe: boolean; reason?: string } {
  let root: Node;
  try {
    root = regjsparser.parse(pattern, flags, FEATURES);
  } catch (error) {
    return { safe: false, reason: `invalid regular expression: ${errorMessage(error)}` };
  }
  const ignoreCase = flags.includes('i');
  const problem = findProblem(root, ignoreCase);
  return problem === undefined ? { safe: true } : { safe: false, reason: problem };
}

const FEATURES = {
  lookbehind: true,
  namedGroups: true,
  unicodePropertyEscape: true,
  unicodeSet: true,
  modifiers: true,
} as const;
type Node = AstNode<typeof FEATURES>;

/** Inclusive code point ranges, sorted and merged. */
type CharSet = readonly (readonly [number, number])[];
const MAX = 0x10ffff;
const ANY: CharSet = [[0, MAX]];
const EMPTY: CharSet = [];

/** Repeats beyond this behave like an unbounded quantifier for backtracking blow-up. */
const MANY = 16;

function repeatsMany(node: Node): boolean {
  return node.type === 'quantifier' && (node.max === undefined || node.max > MANY);
}

function findProblem(node: Node, ignoreCase: boolean): string | undefined {
  if (node.type === 'quantifier' && repeatsMany(node)) {
    const body = node.body[0];
    const inner = findUnboundedQuantifier(body);
    if (inner !== undefined) {
      return `nested quantifier: "${inner}" is repeated by "${node.raw}" (exponential backtracking)`;
    }
    const overlap = overlappingAlternation(body, ignoreCase);
    if (overlap !== undefined) {
      return `repeated alternation "${node.raw}" has branches that can match the same text (${overlap})`;
    }
  }
  for (const child of childrenOf(node)) {
    const problem = findProblem(child, ignoreCase);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function childrenOf(node: Node): readonly Node[] {
  switch (node.type) {
    case 'alternative':
    case 'disjunction':
    case 'group':
    case 'quantifier':
      return node.body;
    default:
      return [];
  }
}

function findUnboundedQuantifier(node: Node): string | undefined {
  if (repeatsMany(node)) return node.raw;
  for (const child of childrenOf(node)) {
    const found = findUnboundedQuantifier(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The branches of the alternation directly under `node` (through groups), if any overlap. */
function overlappingAlternation(node: Node, ignoreCase: boolean): string | undefined {
  let current: Node = node;
  while (current.type === 'group' || current.type === 'alternative') {
    if (current.body.length !== 1 || current.body[0] === undefined) return undefined;
    current = current.body[0];
  }
  if (current.type !== 'disjunction') return undefined;
  const branches = current.body;
  for (let i = 0; i < branches.length; i++) {
    const a = branches[i]!;
    if (nullable(a)) return `"${a.raw}" can match the empty string`;
    for (let j = i + 1; j < branches.length; j++) {
      const b = branches[j]!;
      if (intersects(firstSet(a, ignoreCase), firstSet(b, ignoreCase))) {
        return `"${a.raw}" and "${b.raw}" can start with the same character`;
      }
    }
  }
  return undefined;
}

function nullable(node: Node): boolean {
  switch (node.type) {
    case 'alternative':
      return node.body.every(nullable);
    case 'disjunction':
      return node.body.some(nullable);
    case 'group':
      return node.behavior === 'normal' || node.behavior === 'ignore' ? node.body.every(nullable) : true;
    case 'quantifier':
      return node.min === 0 || nullable(node.body[0]);
    case 'anchor':
    case 'reference':
      return true;
    default:
      return false;
  }
}

/** Characters that can start a match of `node` (an over-approximation). */
function firstSet(node: Node, ignoreCase: boolean): CharSet {
  switch (node.type) {
    case 'alternative':
    case 'group': {
      if (node.type === 'group' && node.behavior !== 'normal' && node.behavior !== 'ignore') return EMPTY;
      let set: CharSet = EMPTY;
      for (const part of node.body) {
        set = union(set, firstSet(part, ignoreCase));
        if (!nullable(part)) break;
      }
      return set;
    }
    case 'disjunction':
      return node.body.reduce<CharSet>((set, branch) => union(set, firstSet(branch, ignoreCase)), EMPTY);
    case 'quantifier':
      return node.max === 0 ? EMPTY : firstSet(node.body[0], ignoreCase);
    case 'value':
      return withCase([[node.codePoint, node.codePoint]], ignoreCase);
    case 'characterClass': {
      const set = node.body.reduce<CharSet>((acc, item) => union(acc, classItemSet(item)), EMPTY);
      return node.negative ? complement(withCase(set, ignoreCase)) : withCase(set, ignoreCase);
    }
    case 'characterClassEscape':
      return escapeSet(node.value);
    case 'anchor':
      return EMPTY;
    default:
      // dot, backreferences, unicode properties, nested classes: anything.
      return ANY;
  }
}

function classItemSet(item: CharacterClassBody): CharSet {
  switch (item.type) {
    case 'value':
      return [[item.codePoint, item.codePoint]];
    case 'characterClassRange':
      return [[item.min.codePoint, item.max.codePoint]];
    case 'characterClassEscape':
      return escapeSet(item.value);
    default:
      return ANY;
  }
}

const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = normalize([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
const SPACE: CharSet = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);

function escapeSet(value: 'd' | 'D' | 'w' | 'W' | 's' | 'S'): CharSet {
  switch (value) {
    case 'd':
      return DIGIT;
    case 'D':
      return complement(DIGIT);
    case 'w':
      return WORD;
    case 'W':
      return complement(WORD);
    case 's':
      return SPACE;
    case 'S':
      return complement(SPACE);
  }
}

/** Adds the other case of ASCII letters; enough for an over-approximation of overlap. */
function withCase(set: CharSet, ignoreCase: boolean): CharSet {
  if (!ignoreCase) return set;
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    for (const [from, to, shift] of [
      [0x41, 0x5a, 32],
      [0x61, 0x7a, -32],
    ] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push([a + shift, b + shift]);
    }
  }
  return union(set, extra);
}

function normalize(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function union(a: CharSet, b: CharSet): CharSet {
  return normalize([...a, ...b]);
}

function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i++;
    else j++;
  }
  return false;
}
