/** Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * Candidates close to `name` (edit distance <= 2 with transpositions, or a prefix match), best first.
 * @example suggest('regx', ['regex', 'contains']) // ['regex']
 */
export function suggest(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const needle = name.toLowerCase();
  if (needle === '') return [];
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(needle, lower);
    const prefix = lower.startsWith(needle) || needle.startsWith(lower);
    if (distance <= 2 || prefix)
      scored.push({ candidate, distance: prefix ? Math.min(distance, 2) : distance });
  }
  scored.sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate));
  // Only the closest: "htp" suggests "http" (1 edit), not also "mcp" (2 edits).
  const best = scored[0]?.distance;
  return scored
    .filter((s) => s.distance === best)
    .slice(0, limit)
    .map((s) => s.candidate);
}

/** ` (did you mean "regex"?)` or an empty string, to append to an "unknown name" message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = suggest(name, candidates);
  if (close.length === 0) return '';
  return ` (did you mean ${close.map((c) => `"${c}"`).join(' or ')}?)`;
}

/** The closest candidate, if one is close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  return suggest(name, candidates, 1)[0];
}

/** `unknown evaluator "regx" (did you mean "regex"?)` */
export function unknownNameMessage(kind: string, name: string, candidates: Iterable<string>): string {
  return `unknown ${kind} "${name}"${didYouMean(name, candidates)}`;
}
