import { z } from 'zod';
import { formatPath } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { type Experiment, ExperimentSchema } from '../core/experiment.ts';
import { type RunRecord, RunRecordSchema } from '../core/run-record.ts';
import { isValidated } from '../core/validated-record.ts';
import { compileExactCheck, type ExactCheck } from '../util/exact-check.ts';

import type { ExperimentPatch } from './types.ts';

/**
 * How both stores turn the core model into stored text and back. Documents are validated on
 * the way in (a bug upstream fails loudly instead of storing what cannot be read back) and on
 * the way out (a damaged row fails with its experiment and run named, never as a half-typed value).
 */

/** An experiment without its records: the records are stored one per row. */
export type ExperimentDocument = Omit<Experiment, 'records'>;

/** `path: message` for each zod issue, the path as every diagnostic writes it (`records[0].task_id`). */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}

/** Checks an experiment about to be stored; returns the canonical (parsed) value. */
export function checkExperiment(experiment: Experiment): Experiment {
  const parsed = ExperimentSchema.safeParse(experiment);
  if (parsed.success) {
    const seen = new Set<string>();
    for (const record of parsed.data.records) {
      // Two records with one run_id would collapse into one row: what comes back would differ.
      if (seen.has(record.run_id)) {
        throw new HarnessEvalError(
          'invalid_input',
          `experiment ${experiment.id} has two records with run_id ${record.run_id}`,
          {
            data: { experimentId: experiment.id, runId: record.run_id },
          },
        );
      }
      seen.add(record.run_id);
    }
    return parsed.data;
  }
  throw new HarnessEvalError(
    'invalid_input',
    `experiment ${experiment.id} is not valid: ${describeIssues(parsed.error).join('; ')}`,
    { data: { experimentId: experiment.id } },
  );
}

/** Checks a run record about to be stored; returns the canonical (parsed) value. */
export function checkRecord(experimentId: string, record: RunRecord): RunRecord {
  if (record.experiment_id !== undefined && record.experiment_id !== experimentId) {
    throw new HarnessEvalError(
      'invalid_input',
      `run ${record.run_id} belongs to experiment ${record.experiment_id}, not ${experimentId}`,
      { data: { experimentId, runId: record.run_id } },
    );
  }
  if (isValidated(record)) return record;
  const parsed = RunRecordSchema.safeParse(record);
  if (parsed.success) return parsed.data;
  throw new HarnessEvalError(
    'invalid_input',
    `run ${record.run_id} of experiment ${experimentId} is not valid: ${describeIssues(parsed.error).join('; ')}`,
    { data: { experimentId, runId: record.run_id } },
  );
}

/** JSON text with secret environment values scrubbed; `what` names the document in errors. */
export function encodeDocument(value: unknown, redact: (text: string) => string, what: string): string {
  const text = JSON.stringify(value);
  const redacted = redact(text);
  if (redacted === text) return text;
  // A secret that happens to be spelled like a JSON number or key could break the text; refuse
  // to store something unreadable rather than the secret itself.
  try {
    JSON.parse(redacted);
  } catch {
    throw new HarnessEvalError('store', `${what}: a secret environment value could not be redacted safely`);
  }
  return redacted;
}

export function splitExperiment(experiment: Experiment): {
  document: ExperimentDocument;
  records: RunRecord[];
} {
  const { records, ...document } = experiment;
  return { document, records };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HarnessEvalError('store', `${what} is corrupt: not JSON`, { cause: error });
  }
}

function corrupt(what: string, error: z.ZodError): HarnessEvalError {
  return new HarnessEvalError('store', `${what} is corrupt: ${describeIssues(error).join('; ')}`, {
    cause: error,
  });
}

/** Reads a stored experiment document (records are read separately). */
export function decodeExperiment(text: string, experimentId: string): Experiment {
  const what = `stored experiment ${experimentId}`;
  const value = parseJson(text, what);
  const parsed = ExperimentSchema.safeParse(value);
  if (!parsed.success) throw corrupt(what, parsed.error);
  if (parsed.data.id !== experimentId) {
    throw new HarnessEvalError('store', `${what} is corrupt: its document has id ${parsed.data.id}`);
  }
  return parsed.data;
}

let storedRecordCheck: ExactCheck | undefined | null = null;

/**
 * Reads a stored run record. A record as the store wrote it (the schema's own output) is taken
 * as parsed after one plain walk that zod would agree with (util/exact-check.ts); anything else — an
 * older record missing a defaulted field, a damaged row — goes through zod, which fills or refuses.
 */
export function decodeRecord(text: string, experimentId: string, runId: string): RunRecord {
  const what = `stored run ${runId} of experiment ${experimentId}`;
  const value = parseJson(text, what);
  if (storedRecordCheck === null) storedRecordCheck = compileExactCheck(RunRecordSchema);
  if (storedRecordCheck?.(value) && (value as RunRecord).run_id === runId) return value as RunRecord;
  const parsed = RunRecordSchema.safeParse(value);
  if (!parsed.success) throw corrupt(what, parsed.error);
  if (parsed.data.run_id !== runId) {
    throw new HarnessEvalError('store', `${what} is corrupt: its document has run_id ${parsed.data.run_id}`);
  }
  return parsed.data;
}

/** The experiment with a patch applied; fields present in the patch replace the stored ones. */
export function applyPatch(experiment: ExperimentDocument, patch: ExperimentPatch): ExperimentDocument {
  const next: ExperimentDocument = { ...experiment };
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.finished_at !== undefined) next.finished_at = patch.finished_at;
  if (patch.metrics !== undefined) next.metrics = [...patch.metrics];
  if (patch.scores !== undefined) next.scores = { ...patch.scores };
  if (patch.outcome !== undefined) next.outcome = patch.outcome;
  if (patch.violations !== undefined) next.violations = [...patch.violations];
  if (patch.metadata !== undefined) next.metadata = { ...patch.metadata };
  return next;
}

/**
 * The fields an update may change, each checked by ExperimentSchema's own field schema. The
 * defaults are unwrapped: `.partial()` would fill an absent `metrics` with `[]` and wipe it.
 */
const fields = ExperimentSchema.shape;
const PatchSchema = z.object({
  status: fields.status.optional(),
  finished_at: fields.finished_at,
  metrics: fields.metrics.unwrap().optional(),
  scores: fields.scores.unwrap().optional(),
  outcome: fields.outcome,
  violations: fields.violations.unwrap().optional(),
  metadata: fields.metadata.unwrap().optional(),
});

/**
 * The stored document with `patch` applied. Only the patch is validated: the rest of the document
 * was validated when it was written, and re-parsing it (a suite of 10,000 tasks, twice) was most
 * of the cost of finishing a large run. A document that is not a JSON object with this id is
 * reported corrupt; `getExperiment` still checks every field on read.
 */
export function patchDocument(
  text: string,
  experimentId: string,
  patch: ExperimentPatch,
): ExperimentDocument {
  const checked = PatchSchema.safeParse(patch);
  if (!checked.success) {
    throw new HarnessEvalError(
      'invalid_input',
      `the update of experiment ${experimentId} is not valid: ${describeIssues(checked.error).join('; ')}`,
      { data: { experimentId } },
    );
  }
  const what = `stored experiment ${experimentId}`;
  const current = parseJson(text, what);
  if (typeof current !== 'object' || current === null || Array.isArray(current))
    throw new HarnessEvalError('store', `${what} is corrupt: not a JSON object`);
  if ((current as { id?: unknown }).id !== experimentId)
    throw new HarnessEvalError('store', `${what} is corrupt: its document has another id`);
  const { records: _records, ...document } = current as Experiment;
  return applyPatch(document, checked.data);
}

/** Records of tasks that are not in the suite sort after every suite task (then by task id). */
export const UNKNOWN_TASK_INDEX = Number.MAX_SAFE_INTEGER;

/** Where a record sorts: its task's position in the suite file, unknown tasks last. */
export function taskIndexes(experiment: ExperimentDocument): ReadonlyMap<string, number> {
  const indexes = new Map<string, number>();
  experiment.suite.tasks.forEach((task, index) => {
    if (!indexes.has(task.id)) indexes.set(task.id, index);
  });
  return indexes;
}

export function taskIndexOf(indexes: ReadonlyMap<string, number>, taskId: string): number {
  return indexes.get(taskId) ?? UNKNOWN_TASK_INDEX;
}
