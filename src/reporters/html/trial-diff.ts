import type { WorkspaceDiff } from '../../core/run-record.ts';
import { truncateText } from './escape.ts';

/** Diff text kept per trial in a page; the rest is counted, not shown. */
export const DIFF_SHOWN = 20_000;
/** A diff longer than this many lines starts collapsed: the trace stays readable above and below it. */
export const DIFF_OPEN_LINES = 40;

/**
 * What the trace view shows of a trial's changes to the starter codebase: the files, the diff cut
 * at a line end within DIFF_SHOWN, and how many bytes are not shown (cut here, plus any the run
 * already left out at its own limit). Text only: the script writes it through text nodes.
 */
export function trialDiff(diff: WorkspaceDiff) {
  const cut = truncateText(diff.diff, DIFF_SHOWN);
  const lineEnd = cut.omitted > 0 ? cut.text.lastIndexOf('\n') : -1;
  const shown = lineEnd > 0 ? cut.text.slice(0, lineEnd + 1) : cut.text;
  const hiddenHere = Buffer.byteLength(diff.diff) - Buffer.byteLength(shown);
  const lines = shown === '' ? 0 : shown.split('\n').length;
  return {
    files: diff.files.map((f) => ({ path: f.path, status: f.status })),
    text: shown,
    omitted_bytes: hiddenHere + diff.omitted_bytes,
    /** Shown open: a short, complete diff. */
    open: hiddenHere + diff.omitted_bytes === 0 && lines <= DIFF_OPEN_LINES,
    lines,
  };
}
export type TrialDiff = ReturnType<typeof trialDiff>;
