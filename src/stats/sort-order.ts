/**
 * The positions of `values` in ascending order of value, equal values in position order (a
 * stable sort). A bottom-up merge sort over two typed arrays: 8 bytes a value and nothing else.
 * `Uint32Array.prototype.sort` with a comparator boxes every element on V8 (68 MB for 300,000
 * latencies, the peak of a long run's end). Values must not be NaN.
 */
export function ascendingOrder(values: ArrayLike<number>): Uint32Array {
  const n = values.length;
  let from = new Uint32Array(n);
  let to = new Uint32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  for (let width = 1; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const middle = Math.min(start + width, n);
      const end = Math.min(start + 2 * width, n);
      let left = start;
      let right = middle;
      let at = start;
      // Taking from the left run on ties keeps equal values in position order.
      while (left < middle && right < end)
        to[at++] = values[from[right]!]! < values[from[left]!]! ? from[right++]! : from[left++]!;
      while (left < middle) to[at++] = from[left++]!;
      while (right < end) to[at++] = from[right++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}
