import { type JsonValue, query } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';

/** The values a JSONPath selects in a document, in the order RFC 9535 gives them. */
export type JsonPathQuery = (document: JsonValue) => JsonValue[];

/** One step of a path made only of single names and indexes (`$.output`, `$['a'][0]`). */
type Step = { readonly name: string } | { readonly index: number };

// biome-ignore lint/suspicious/noExplicitAny: the parser's syntax tree is read generically
type Node = any;

function stepOf(segment: Node): Step | undefined {
  if (segment?.type !== 'ChildSegment') return undefined;
  const node = segment.node;
  if (node?.type === 'MemberNameShorthand') return { name: node.value };
  if (node?.type !== 'BracketedSelection' || node.selectors?.length !== 1) return undefined;
  const [selector] = node.selectors;
  if (selector.type === 'NameSelector') return { name: selector.value };
  if (selector.type === 'IndexSelector' && Number.isSafeInteger(selector.value))
    return { index: selector.value };
  return undefined;
}

function walk(document: JsonValue, steps: readonly Step[]): JsonValue[] {
  let value: JsonValue = document;
  for (const step of steps) {
    if ('name' in step) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
      if (!Object.hasOwn(value, step.name)) return [];
      value = value[step.name] as JsonValue;
    } else {
      if (!Array.isArray(value)) return [];
      const at = step.index < 0 ? value.length + step.index : step.index;
      if (at < 0 || at >= value.length) return [];
      value = value[at] as JsonValue;
    }
  }
  return [value];
}

/**
 * `path` parsed once (it throws on a malformed path, as `query` does): a path of single names and
 * indexes — nearly every output path — walks the document directly; any other runs the library's
 * `query`. The library parses its path on every call, which cost the HTTP adapter more per
 * request than reading the response (bench/README.md, queue workers).
 */
export function compileJsonPath(path: string): JsonPathQuery {
  const ast: Node = parseJsonPath(path);
  const steps = Array.isArray(ast?.segments) ? ast.segments.map(stepOf) : [undefined];
  if (steps.some((step: Step | undefined) => step === undefined)) return (document) => query(document, path);
  return (document) => walk(document, steps as Step[]);
}
