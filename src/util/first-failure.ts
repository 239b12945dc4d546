/**
 * The first failing assertion in a test command's output, in one line: what a reader needs
 * beside `ac-01` instead of `command "node --import tsx --te…" exited with code 1`. Reads the
 * TAP that `node --test` prints without a terminal (`not ok 1 - name` + its `error:`), the spec
 * reporter (`✖ name` + the message under it), and otherwise the first line that says error,
 * fail or assert. Undefined when nothing looks like a failure.
 */
const MAX = 300;

const TAP_NOT_OK = /^\s*not ok (\d+)(?: - (.*))?$/;
const SPEC_FAILED = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/;
const GENERIC = /\b(?:error|fail(?:ed|ure|s)?|assert(?:ion)?)\b/i;

function oneLine(parts: readonly string[]): string {
  const text = parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(' ');
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

function unquote(value: string): string {
  const v = value.trim();
  return /^'.*'$/.test(v) ? v.slice(1, -1).replaceAll("''", "'") : v;
}

/** The first lines (up to two, non-blank) of the TAP diagnostic's `error:` field. */
function tapError(lines: readonly string[], from: number): string[] {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\.\.\.\s*$/.test(line) || TAP_NOT_OK.test(line) || /^\s*ok \d+/.test(line)) return [];
    const field = /^(\s*)error:\s*(.*)$/.exec(line);
    if (field === null) continue;
    const inline = field[2] ?? '';
    if (inline !== '' && !/^[|>]-?$/.test(inline)) return [unquote(inline)];
    const indent = (field[1] ?? '').length;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && block.length < 2; j++) {
      const next = lines[j] ?? '';
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
      if (next.trim() !== '') block.push(next);
    }
    return block;
  }
  return [];
}

/** The message under a spec reporter's `✖ name` line: its first two non-blank lines. */
function specError(lines: readonly string[], from: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length && out.length < 2; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    if (line.startsWith('at ') || SPEC_FAILED.test(line) || line.startsWith('✔')) break;
    out.push(line.replace(/^[A-Za-z]*Error(?: \[[A-Z_]+\])?: /, ''));
  }
  return out;
}

export function firstFailure(output: string): string | undefined {
  const lines = output.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const tap = TAP_NOT_OK.exec(line);
    if (tap !== null)
      return oneLine([`${tap[2] ?? `test ${tap[1] ?? ''}`}:`, ...tapError(lines, i + 1)]).replace(/:$/, '');
    const spec = SPEC_FAILED.exec(line);
    if (spec !== null && spec[1] !== 'failing tests:')
      return oneLine([`${spec[1] ?? ''}:`, ...specError(lines, i + 1)]).replace(/:$/, '');
  }
  const generic = lines.find((line) => GENERIC.test(line));
  return generic === undefined ? undefined : oneLine([generic]);
}
