/**
 * `items` in lists of `size` (the last one shorter), each made only when the one before has been
 * used: a plan of a million job ids goes to the database a statement at a time, never as one list.
 */
export function* chunks<T>(items: Iterable<T>, size: number): Generator<T[]> {
  const length = Math.max(1, Math.trunc(size));
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === length) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
