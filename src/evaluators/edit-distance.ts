/** Code points of a text, so that an emoji or an accented letter counts as one character. */
export function codePoints(text: string): Uint32Array {
  const out = new Uint32Array(text.length);
  let n = 0;
  // An index loop with manual surrogate pairing: the string iterator is ~10x slower on 10 MB texts.
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out[n++] = (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = unit;
  }
  return out.subarray(0, n);
}

/** Drops the common prefix and suffix, which never change the distance. */
function trimCommon(a: Uint32Array, b: Uint32Array): [Uint32Array, Uint32Array] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [a.subarray(start, endA), b.subarray(start, endB)];
}

/** Levenshtein distance by the two-row dynamic programme: O(n*m) time, O(m) memory. */
export function levenshteinDistance(a: Uint32Array, b: Uint32Array): number {
  const [s, t] = trimCommon(a, b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  const m = t.length;
  const row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  // One row updated in place: `diagonal` keeps the previous row's value at j - 1.
  for (let i = 1; i <= s.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    const si = s[i - 1];
    for (let j = 1; j <= m; j++) {
      const above = row[j]!;
      let best = diagonal + (si === t[j - 1] ? 0 : 1);
      if (above + 1 < best) best = above + 1;
      const left = row[j - 1]! + 1;
      if (left < best) best = left;
      diagonal = above;
      row[j] = best;
    }
  }
  return row[m]!;
}

/**
 * The distance when it is at most `k`, else undefined: only the diagonal band of width 2k+1 is
 * computed (Ukkonen), O(k * n) time, so a small bound makes huge texts cheap.
 */
export function boundedLevenshtein(a: Uint32Array, b: Uint32Array, k: number): number | undefined {
  const [s, t] = trimCommon(a, b);
  if (Math.abs(s.length - t.length) > k) return undefined;
  if (s.length === 0 || t.length === 0) return Math.max(s.length, t.length);
  const big = k + 1;
  let prev = new Int32Array(t.length + 2);
  let cur = new Int32Array(t.length + 2);
  for (let j = 0; j <= t.length + 1; j++) prev[j] = j <= k ? j : big;
  for (let i = 1; i <= s.length; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(t.length, i + k);
    cur[lo - 1] = lo === 1 ? (i <= k ? i : big) : big;
    let rowMin = cur[lo - 1]!;
    const si = s[i - 1];
    for (let j = lo; j <= hi; j++) {
      const substitution = prev[j - 1]! + (si === t[j - 1] ? 0 : 1);
      const deletion = prev[j]! + 1;
      const insertion = cur[j - 1]! + 1;
      const best = Math.min(substitution, deletion, insertion, big);
      cur[j] = best;
      if (best < rowMin) rowMin = best;
    }
    cur[hi + 1] = big;
    if (rowMin > k) return undefined;
    [prev, cur] = [cur, prev];
  }
  const distance = prev[t.length]!;
  return distance <= k ? distance : undefined;
}
