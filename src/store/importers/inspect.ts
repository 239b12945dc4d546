import { basename } from 'node:path';
import type { HarnessEvalError } from '../../core/errors.ts';
import type { ExperimentStatus } from '../../core/experiment.ts';
import { ZipArchive, ZipError } from '../../util/zip-reader.ts';
import { importedExperiment, isoTime } from './experiment-draft.ts';
import { inspectRecord } from './inspect-record.ts';
import {
  type InspectHeader,
  InspectHeaderSchema,
  InspectLogSchema,
  type InspectSample,
  InspectSampleSchema,
} from './inspect-schema.ts';
import { fileProblem, parseForeignJson, readForeignJson } from './json-document.ts';
import type { ImportedRuns, ImportOptions } from './types.ts';
import { UnmappedFields } from './unmapped.ts';

const STATUS: Record<InspectHeader['status'], ExperimentStatus> = {
  success: 'completed',
  cancelled: 'interrupted',
  error: 'failed',
  started: 'interrupted',
};

function zipFailure(shown: string, error: unknown): HarnessEvalError {
  return fileProblem(`${shown} cannot be read as an Inspect .eval log`, {
    file: shown,
    message: error instanceof Error ? error.message : String(error),
    expected: 'an Inspect .eval zip log, or the JSON form (`inspect log convert --to json`)',
    cause: error,
  });
}

/** An `.eval` log: a zip of header.json and samples/<id>_epoch_<n>.json (log/_recorders/eval.py). */
async function readEvalZip(
  path: string,
  shown: string,
): Promise<{ header: InspectHeader; samples: InspectSample[] }> {
  try {
    const zip = await ZipArchive.open(path);
    const json = (name: string) => zip.read(name).toString('utf8');
    const headerName = zip.entries.has('header.json') ? 'header.json' : '_journal/start.json';
    if (!zip.entries.has(headerName)) throw new ZipError('no header.json (nor _journal/start.json) in it');
    const header = parseForeignJson(json(headerName), `${shown}/${headerName}`, InspectHeaderSchema);
    const names = [...zip.entries.keys()]
      .filter((n) => n.startsWith('samples/') && n.endsWith('.json'))
      .sort();
    const samples = names.map((n) => parseForeignJson(json(n), `${shown}/${n}`, InspectSampleSchema));
    return { header, samples };
  } catch (error) {
    if (
      error instanceof ZipError ||
      (error instanceof Error && 'code' in error && String(error.code).startsWith('Z_'))
    )
      throw zipFailure(shown, error);
    throw error;
  }
}

async function readLog(path: string, shown: string) {
  if (path.endsWith('.eval')) return readEvalZip(path, shown);
  const log = await readForeignJson(path, shown, InspectLogSchema);
  return { header: log, samples: log.samples ?? [] };
}

/**
 * An Inspect AI eval log (the `.eval` zip, or the JSON form of `inspect log convert --to json`) as
 * one experiment: one record per sample and epoch.
 */
export async function importInspectLog(path: string, options: ImportOptions): Promise<ImportedRuns> {
  const { header, samples } = await readLog(path, options.shown);
  if (samples.length === 0)
    throw fileProblem(`${options.shown} has no samples to import`, {
      file: options.shown,
      path: 'samples',
      message: 'the log holds no samples (run with log_samples on, or a header-only log was given)',
      expected: 'an eval log with samples',
    });
  const spec = header.eval;
  const solver = spec.solver ?? (header.plan?.steps.map((s) => s.solver).join('+') || undefined);
  const harness = { name: solver ?? spec.task, version: String(spec.task_version ?? 0) };
  const fallbackTime = isoTime(header.stats?.started_at) ?? isoTime(spec.created) ?? new Date().toISOString();
  const unmapped = new UnmappedFields();
  const primary = header.results?.scores[0]?.name;
  const records = samples.map((sample) =>
    inspectRecord(sample, {
      primary,
      passThreshold: options.passThreshold ?? 1,
      model: spec.model,
      harness,
      fallbackTime,
      unmapped,
    }),
  );
  const list = unmapped.list();
  const experiment = importedExperiment({
    tool: 'inspect',
    sourceId: spec.eval_id ?? spec.run_id ?? `${spec.task}@${spec.created}`,
    group: `${spec.task}__${spec.model}`,
    name: `${spec.task} ${spec.model}`,
    source: options.shown,
    harness: {
      ...harness,
      adapter: 'inspect',
      model: spec.model,
      metadata: { inspect_task: spec.task, ...(solver === undefined ? {} : { solver }) },
    },
    suiteId: options.suiteId ?? spec.task,
    createdAt: isoTime(header.stats?.started_at) ?? isoTime(spec.created) ?? fallbackTime,
    ...(isoTime(header.stats?.completed_at) === undefined
      ? {}
      : { finishedAt: isoTime(header.stats?.completed_at) }),
    status: STATUS[header.status],
    records,
    metadata: {
      inspect: {
        file: basename(path),
        status: header.status,
        ...(spec.eval_id === undefined ? {} : { eval_id: spec.eval_id }),
        ...(spec.run_id === undefined ? {} : { run_id: spec.run_id }),
        ...(spec.packages === undefined ? {} : { packages: spec.packages }),
        ...(header.results == null ? {} : { results: header.results }),
        ...(header.error == null ? {} : { error: header.error.message }),
      },
    },
    unmapped: list,
  });
  return { tool: 'inspect', experiments: [experiment], unmapped: list };
}
