/**
 * Agent data is walked without recursion here, because an agent chooses its shape: JSON nested
 * 8,000 deep (16 KB) overflowed the stack of `JSON.stringify` and of every recursive walk after
 * it, and crashed the whole run. The runner refuses data deeper than `MAX_DATA_DEPTH` as the
 * trial's `output_too_deep` error, so that everything downstream (redaction, storage, reports)
 * may recurse safely.
 */

/** Deeper agent data is refused. Real outputs stay far below it; recursive walks stay far from the stack's end. */
export const MAX_DATA_DEPTH = 512;

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * How deep `value` nests (a scalar is 0, `[]` is 1, `[[]]` is 2), counting no further than
 * `limit + 1`: enough to tell "too deep" without walking the rest. A cycle (possible in what an
 * in-process harness returns, never in parsed JSON) is `Infinity`.
 */
export function dataDepth(value: unknown, limit = MAX_DATA_DEPTH): number {
  if (!isContainer(value)) return 0;
  let deepest = 0;
  // Depth-first with explicit enter/leave steps, so that `onPath` holds exactly the ancestors.
  const stack: { node: object; depth: number; leave: boolean }[] = [{ node: value, depth: 1, leave: false }];
  const onPath = new Set<object>();
  while (stack.length > 0) {
    const step = stack.pop();
    if (step === undefined) break;
    if (step.leave) {
      onPath.delete(step.node);
      continue;
    }
    if (onPath.has(step.node)) return Number.POSITIVE_INFINITY;
    if (step.depth > deepest) deepest = step.depth;
    if (deepest > limit) return deepest;
    onPath.add(step.node);
    stack.push({ ...step, leave: true });
    for (const child of Object.values(step.node))
      if (isContainer(child)) stack.push({ node: child, depth: step.depth + 1, leave: false });
  }
  return deepest;
}

/** Whether `value` is JSON data: null, strings, booleans, finite numbers, arrays and plain objects of them. */
export function isJsonData(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false;
      continue;
    }
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    if (typeof item !== 'object') return false;
    const proto: unknown = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const child of Object.values(item)) stack.push(child);
  }
  return true;
}
