import { displayWidth, escapeControl, fitToWidth } from '../util/terminal-text.ts';

export interface TextColumn {
  readonly head: string;
  readonly align?: 'left' | 'right';
}

/**
 * A plain-text table: each column as wide as its widest cell, two spaces between columns.
 * Cells are escaped (task ids and explanations come from users and agents). `paint` colours a
 * cell after padding, so escape codes never disturb the alignment.
 */
export function textTable(
  columns: readonly TextColumn[],
  rows: readonly (readonly string[])[],
  paint: (row: number, column: number, text: string) => string = (_r, _c, text) => text,
): string[] {
  const safeRows = rows.map((row) => row.map((cell) => escapeControl(cell)));
  const widths = columns.map((c, i) =>
    Math.max(displayWidth(c.head), ...safeRows.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (cells: readonly string[], row: number) =>
    cells
      .map((cell, i) => {
        const padded = fitToWidth(cell, widths[i] ?? 0, columns[i]?.align ?? 'left');
        return row < 0 ? padded : paint(row, i, padded);
      })
      .join('  ')
      .trimEnd();
  return [
    line(
      columns.map((c) => c.head),
      -1,
    ),
    ...safeRows.map((row, r) => line(row, r)),
  ];
}
