/**
 * A user reporter: one tab-separated line per trial. `report` returns the text and, given a
 * destination, writes it there too (parent folders created): `deliver` does both.
 */
import type { ReporterEntry } from 'harnesseval';
import { defineReporter, deliver, type Experiment, type ReporterV1 } from 'harnesseval/plugin';

/** Tabs and newlines would break a row: replace them with spaces. */
function cell(value: string): string {
  return value.replace(/[\t\r\n]+/g, ' ');
}

export function renderTsv(experiment: Experiment): string {
  const rows = experiment.records.map((r) =>
    [r.task_id, String(r.epoch), r.outcome, r.duration_seconds.toFixed(3), cell(r.error ?? '')].join('\t'),
  );
  return `${['task_id', 'epoch', 'outcome', 'duration_seconds', 'error'].join('\t')}\n${rows.map((r) => `${r}\n`).join('')}`;
}

export function createTsvReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'tsv',
    extensions: ['.tsv'],
    report: async (experiment, options) => deliver(renderTsv(experiment), options),
  };
}

/** For a plugin module: `definePlugin({ reporters: [tsvReporter] })`; then `-o results.tsv` selects it. */
export const tsvReporter = defineReporter({
  name: 'tsv',
  extensions: ['.tsv'],
  description: 'one tab-separated row per trial',
  create: createTsvReporter,
});

/** For a library run: `registerReporter('tsv', tsvReporterEntry)` (from `harnesseval`). */
export const tsvReporterEntry: ReporterEntry = {
  load: async () => createTsvReporter(),
  extensions: ['.tsv'],
  description: 'one tab-separated row per trial',
};
