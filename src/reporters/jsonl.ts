import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { makeDirsSync } from '../util/make-dirs.ts';
import { deliver } from './destination.ts';
import type { RecordPages, ReporterV1, ReportWriter } from './types.ts';

/** One run record per line, in the experiment's order (task file order, then epoch). */
export function renderJsonl(experiment: Experiment): string {
  return experiment.records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** `renderJsonl` of the experiment with its records, a line per record as its page arrives. */
export async function streamJsonl(pages: RecordPages, write: ReportWriter): Promise<void> {
  for await (const record of pages.records()) await write(`${JSON.stringify(record)}\n`);
}

/**
 * The streaming reporter: `onRunStart` truncates the destination and writes the records a resumed
 * run already has, `onTrialEnd` appends each trial's line synchronously as it finishes (so a
 * crash keeps every line written so far), and `onRunEnd` rewrites the file in file order.
 * A new instance per run: it holds the open file.
 */
export function createJsonlReporter(): ReporterV1 {
  let fd: number | undefined;
  let path: string | undefined;
  let written = 0;

  const append = (record: RunRecord): void => {
    if (fd === undefined) return;
    writeSync(fd, `${JSON.stringify(record)}\n`);
    written += 1;
  };

  return {
    specificationVersion: 'v1',
    name: 'jsonl',
    extensions: ['.jsonl'],
    async report(experiment, options) {
      return deliver(renderJsonl(experiment), options);
    },
    streamReport: (_experiment, pages, write) => streamJsonl(pages, write),
    async onRunStart(experiment, options) {
      if (options?.destination === undefined) return;
      path = options.destination;
      try {
        makeDirsSync(dirname(path));
        fd = openSync(path, 'w');
      } catch (cause) {
        throw new HarnessEvalError('usage', `cannot write the report to ${path}: ${errorMessage(cause)}`, {
          cause,
          data: { destination: path },
        });
      }
      written = 0;
      for (const record of experiment.records) append(record);
    },
    async onTrialEnd(record) {
      append(record);
    },
    async onRunEnd(experiment) {
      if (fd === undefined || path === undefined) return;
      closeSync(fd);
      fd = undefined;
      // Lines arrived in completion order; the finished file is in file order, written atomically.
      // A caller that hands over fewer records than were streamed keeps the streamed file.
      if (experiment.records.length < written) return;
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, renderJsonl(experiment), 'utf8');
      renameSync(temporary, path);
    },
  };
}
