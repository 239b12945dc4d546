/** Edit distance (insertions, deletions, substitutions) between two short names. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known name closest to a misspelled one, when it is close enough to be a typo
 * (case-insensitive; at most 2 edits, or a third of the name's length for long names).
 *
 * @example didYouMean('htp', ['http', 'cli']) // 'http'
 */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return best !== undefined && best.distance <= limit ? best.name : undefined;
}
