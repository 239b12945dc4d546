/** One line of an edit script: kept, removed from the old text, or added by the new one. */
interface Edit {
  readonly kind: ' ' | '-' | '+';
  readonly line: string;
  /** 1-based line numbers in the old and new text (the last one passed, for additions/removals). */
  readonly oldLine: number;
  readonly newLine: number;
}

/** Beyond this many differences the texts are shown as replaced whole (Myers is O(D²) memory). */
const MAX_EDIT_DISTANCE = 4000;

/**
 * The shortest edit script from `a` to `b` (Myers 1986), or undefined when it is longer than
 * MAX_EDIT_DISTANCE. Each step keeps only the window of diagonals it can reach, so memory is
 * O(D²), not O(D·(N+M)).
 */
function editScript(a: readonly string[], b: readonly string[]): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[], depth: number) {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = depth; d >= 0; d--) {
    const window = trace[d]!;
    const at = (k: number) => window[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      edits.push({ kind: ' ', line: a[x - 1]!, oldLine: x, newLine: y });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) edits.push({ kind: '+', line: b[prevY]!, oldLine: x, newLine: prevY + 1 });
      else edits.push({ kind: '-', line: a[prevX]!, oldLine: prevX + 1, newLine: y });
    }
    x = prevX;
    y = prevY;
  }
  return edits.reverse();
}

function lines(text: string): string[] {
  if (text === '') return [];
  const split = text.split('\n');
  if (split.at(-1) === '') split.pop();
  return split;
}

/**
 * A unified diff (`diff -u`, `context` lines around each change) of `before` into `after`, with
 * `--- a/path` / `+++ b/path` headers; '' when the texts are equal. Texts too different for the
 * edit-distance budget are shown as one hunk replacing the old text with the new.
 */
export function unifiedDiff(path: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const a = lines(before);
  const b = lines(after);
  const edits = editScript(a, b) ?? [
    ...a.map((line, i): Edit => ({ kind: '-', line, oldLine: i + 1, newLine: 0 })),
    ...b.map((line, i): Edit => ({ kind: '+', line, oldLine: a.length, newLine: i + 1 })),
  ];
  const out = [
    `--- ${a.length === 0 ? '/dev/null' : `a/${path}`}`,
    `+++ ${b.length === 0 ? '/dev/null' : `b/${path}`}`,
  ];
  const changed = edits.flatMap((e, i) => (e.kind === ' ' ? [] : [i]));
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i]! - context);
    let end = Math.min(edits.length, changed[i]! + context + 1);
    while (i + 1 < changed.length && changed[i + 1]! - context <= end) {
      i++;
      end = Math.min(edits.length, changed[i]! + context + 1);
    }
    const hunk = edits.slice(start, end);
    const first = hunk[0]!;
    // A side with no lines in the hunk starts at the line before the change (0: the top).
    const oldStart = hunk.find((e) => e.kind !== '+')?.oldLine ?? first.oldLine;
    const newStart = hunk.find((e) => e.kind !== '-')?.newLine ?? first.newLine;
    const oldCount = hunk.filter((e) => e.kind !== '+').length;
    const newCount = hunk.filter((e) => e.kind !== '-').length;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const e of hunk) out.push(`${e.kind}${e.line}`);
    i++;
  }
  return `${out.join('\n')}\n`;
}
