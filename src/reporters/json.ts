import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { deliver } from './destination.ts';
import type { RecordPages, ReporterV1, ReportWriter } from './types.ts';

/** The Experiment itself, pretty-printed: the portable record that `ExperimentSchema` reads back. */
export function renderJson(experiment: Experiment): string {
  return `${JSON.stringify(experiment, null, 2)}\n`;
}

/** Where the records go in the pretty-printed experiment: a top-level key, two spaces in. */
const RECORDS_KEY = '\n  "records": []';

/**
 * `renderJson` of the experiment around its records: `head` ends with the records array's `[`,
 * `tail(n)` begins with its `]`; between them go `n` records, each an `elementPiece`.
 */
export function jsonFrame(experiment: Experiment): {
  readonly head: string;
  readonly tail: (records: number) => string;
} {
  const text = renderJson({ ...experiment, records: [] });
  const at = text.indexOf(RECORDS_KEY);
  if (at < 0) throw new Error('the experiment has no records key');
  const split = at + RECORDS_KEY.length - 1;
  return {
    head: text.slice(0, split),
    tail: (records) => `${records === 0 ? '' : '\n  '}${text.slice(split)}`,
  };
}

/** A record as an element of the records array: pretty-printed and indented to sit four spaces in. */
export function recordElement(record: RunRecord): string {
  // JSON text has no raw newline in a value.
  return JSON.stringify(record, null, 2).replaceAll('\n', '\n    ');
}

/** The `index`th element of the records array (`recordElement`) with the separator before it. */
export function elementPiece(element: string, index: number): string {
  return `${index === 0 ? '\n' : ',\n'}    ${element}`;
}

/** `renderJson` of the experiment with its records, each record written as its page arrives. */
export async function streamJson(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
): Promise<void> {
  const { head, tail } = jsonFrame(experiment);
  await write(head);
  let written = 0;
  for await (const record of pages.records()) await write(elementPiece(recordElement(record), written++));
  await write(tail(written));
}

/** The reporters `createJsonReporter` made: `harnesseval run` may write their records as trials finish. */
const jsonReporters = new WeakSet<ReporterV1>();

/** Whether `reporter` is the built-in json reporter (its report is `jsonFrame` around `elementPiece`s). */
export function isJsonReporter(reporter: ReporterV1): boolean {
  return jsonReporters.has(reporter);
}

export function createJsonReporter(): ReporterV1 {
  const reporter: ReporterV1 = {
    specificationVersion: 'v1',
    name: 'json',
    extensions: ['.json'],
    async report(experiment, options) {
      return deliver(renderJson(experiment), options);
    },
    streamReport: (experiment, pages, write) => streamJson(experiment, pages, write),
  };
  jsonReporters.add(reporter);
  return reporter;
}
