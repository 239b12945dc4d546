import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument, visit } from 'yaml';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { FieldPath, Locate, Position } from './issues.ts';
import { parseJsonSource } from './json-source.ts';

/** A parsed YAML (or JSON) document that can say where each field is written. */
export interface YamlSource {
  readonly value: unknown;
  readonly locate: Locate;
  /** Syntax errors, duplicate keys, alias bombs: when non-empty, `value` is undefined. */
  readonly diagnostics: readonly Diagnostic[];
}

/** More aliases than this in one file is an alias bomb ("billion laughs"), not a real config. */
const MAX_ALIAS_COUNT = 100;

export function parseYamlSource(file: string, text: string): YamlSource {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // Plain JSON (most generated suites) skips the YAML parser; the same value and positions.
  const json = parseJsonSource(body);
  if (json !== undefined) return { ...json, diagnostics: [] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(body, {
    prettyErrors: false,
    lineCounter,
    uniqueKeys: true,
  });
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, col: p.col };
  };
  const locate: Locate = (path) => at(offsetOf(doc.contents, path));
  const diagnostics: Diagnostic[] = doc.errors.map((error) => ({
    file,
    ...at(error.pos[0]),
    path: '',
    message: error.message.split('\n')[0] ?? error.message,
    expected: error.code === 'DUPLICATE_KEY' ? 'unique keys' : 'valid YAML',
    severity: 'error',
  }));
  if (diagnostics.length > 0) return { value: undefined, locate, diagnostics };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), locate, diagnostics };
  } catch (error) {
    let firstAlias = 0;
    visit(doc, {
      Alias(_, node) {
        firstAlias = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const message = error instanceof Error ? error.message : String(error);
    return {
      value: undefined,
      locate,
      diagnostics: [
        {
          file,
          ...at(firstAlias),
          path: '',
          message: `too many alias expansions: ${message}`,
          expected: `at most ${MAX_ALIAS_COUNT} alias expansions`,
          severity: 'error',
        },
      ],
    };
  }
}

/** Offset of the node at `path`; for a key that is not there, the offset of its parent. */
function offsetOf(root: unknown, path: FieldPath): number {
  let node: unknown = root;
  let offset = rangeStart(node) ?? 0;
  for (const key of path) {
    if (isAlias(node)) return offset;
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key),
      );
      if (pair === undefined) return offset;
      node = pair.value;
      // A null value has no node of its own: point at its key.
      offset = rangeStart(node) ?? rangeStart(pair.key) ?? offset;
      if (node === null) return offset;
      continue;
    }
    if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      if (item === undefined) return offset;
      node = item;
      offset = rangeStart(node) ?? offset;
      continue;
    }
    return offset;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  if (node === null || typeof node !== 'object' || !('range' in node)) return undefined;
  const range = (node as Node).range;
  return range === undefined || range === null ? undefined : range[0];
}
