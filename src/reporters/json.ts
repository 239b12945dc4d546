import type { Experiment } from '../core/experiment.ts';
import { deliver } from './destination.ts';
import type { RecordPages, ReporterV1, ReportWriter } from './types.ts';

/** The Experiment itself, pretty-printed: the portable record that `ExperimentSchema` reads back. */
export function renderJson(experiment: Experiment): string {
  return `${JSON.stringify(experiment, null, 2)}\n`;
}

/** Where the records go in the pretty-printed experiment: a top-level key, two spaces in. */
const RECORDS_KEY = '\n  "records": []';

/** `renderJson` of the experiment with its records, each record written as its page arrives. */
export async function streamJson(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
): Promise<void> {
  const text = renderJson({ ...experiment, records: [] });
  const at = text.indexOf(RECORDS_KEY);
  if (at < 0) throw new Error('the experiment has no records key');
  await write(text.slice(0, at + RECORDS_KEY.length - 1));
  let first = true;
  for await (const record of pages.records()) {
    // An element of a top-level array sits four spaces in; JSON text has no raw newline in a value.
    const element = JSON.stringify(record, null, 2).replaceAll('\n', '\n    ');
    await write(`${first ? '\n' : ',\n'}    ${element}`);
    first = false;
  }
  await write(`${first ? '' : '\n  '}${text.slice(at + RECORDS_KEY.length - 1)}`);
}

export function createJsonReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'json',
    extensions: ['.json'],
    async report(experiment, options) {
      return deliver(renderJson(experiment), options);
    },
    streamReport: (experiment, pages, write) => streamJson(experiment, pages, write),
  };
}
