import { createHash } from 'node:crypto';
import type { ErrorKind } from '../../core/agent-output.ts';
import { type Experiment, ExperimentSchema, type ExperimentStatus } from '../../core/experiment.ts';
import type { HarnessConfigDraft } from '../../core/harness-config.ts';
import type { RunRecordDraft } from '../../core/run-record.ts';
import { harnessEvalVersion } from '../../version.ts';
import type { ImportTool, UnmappedField } from './types.ts';

/** What an importer knows of one experiment; `importedExperiment` turns it into a core Experiment. */
export interface ExperimentParts {
  readonly tool: ImportTool;
  /** The source run's own identity (a job id, an eval id): the same source imports to the same id. */
  readonly sourceId: string;
  /** The group inside the source (agent x model x dataset, provider x prompt). */
  readonly group: string;
  readonly name: string;
  /** The path as the user typed it. */
  readonly source: string;
  readonly harness: HarnessConfigDraft;
  readonly suiteId: string;
  readonly createdAt: string;
  readonly finishedAt?: string | undefined;
  readonly status: ExperimentStatus;
  /** Records without experiment_id (added here); each has its task_id and epoch. */
  readonly records: readonly RunRecordDraft[];
  readonly metadata?: Record<string, unknown>;
  readonly unmapped: readonly UnmappedField[];
}

function slug(text: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned.slice(0, 40).replace(/-+$/, '') || 'run';
}

/** `harbor-terminus-2-claude-sonnet-4-3f9a1c2e`: readable, and stable for one source and group. */
export function importedExperimentId(
  tool: ImportTool,
  name: string,
  sourceId: string,
  group: string,
): string {
  const hash = createHash('sha256').update(`${tool}\n${sourceId}\n${group}`).digest('hex').slice(0, 8);
  return `${tool}-${slug(name)}-${hash}`;
}

/** The Experiment, validated; metrics and scores are computed by the caller (they need the metric registry). */
export function importedExperiment(parts: ExperimentParts): Experiment {
  const id = importedExperimentId(parts.tool, parts.name, parts.sourceId, parts.group);
  const taskIds = [...new Set(parts.records.map((r) => r.task_id))];
  const epochs = Math.max(1, ...parts.records.map((r) => (r.epoch ?? 0) + 1));
  return ExperimentSchema.parse({
    id,
    name: parts.name,
    suite: { id: parts.suiteId, tasks: taskIds.map((task) => ({ id: task, weight: 1 })) },
    harness: parts.harness,
    status: parts.status,
    created_at: parts.createdAt,
    ...(parts.finishedAt === undefined ? {} : { finished_at: parts.finishedAt }),
    settings: { epochs },
    environment: {
      harnesseval_version: harnessEvalVersion(),
      node_version: process.version,
      platform: process.platform,
    },
    records: parts.records.map((r) => ({
      ...r,
      experiment_id: id,
      run_id: r.run_id === '' ? `${id}/${r.task_id}/${r.epoch ?? 0}` : r.run_id,
    })),
    metadata: {
      ...parts.metadata,
      import: {
        tool: parts.tool,
        source: parts.source,
        source_id: parts.sourceId,
        group: parts.group,
        unmapped: parts.unmapped,
      },
    },
  });
}

/**
 * Numbers the attempts at each task 0, 1, 2... in the order given (callers sort by start time):
 * Harbor's `-k 5` and promptfoo's `--repeat` leave them unnumbered.
 */
export function numberEpochs<T>(items: readonly T[], taskOf: (item: T) => string): Map<T, number> {
  const seen = new Map<string, number>();
  const epochs = new Map<T, number>();
  for (const item of items) {
    const task = taskOf(item);
    const epoch = seen.get(task) ?? 0;
    epochs.set(item, epoch);
    seen.set(task, epoch + 1);
  }
  return epochs;
}

/** Seconds between two ISO times, or undefined when either is missing or unreadable. */
export function secondsBetween(
  start: string | null | undefined,
  end: string | null | undefined,
): number | undefined {
  if (start == null || end == null) return undefined;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

/** An ISO time as stored (UTC, `Z`), or undefined when it cannot be read. */
export function isoTime(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/**
 * The kind of an error another tool reported as text. Network and rate-limit failures of a model
 * provider are `transient`; a sandbox or container failure is `infra` (left out of rates); a
 * timeout is `timeout`; anything else is the harness's own (`agent`).
 */
export function errorKindFromText(text: string): ErrorKind {
  if (/\b(sandbox|docker|compose|container|podman|kubernetes|k8s)\b/i.test(text)) return 'infra';
  if (
    /\b(rate.?limit|429|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|socket hang up|overloaded|service unavailable|50[234])\b/i.test(
      text,
    )
  )
    return 'transient';
  if (/\btim(ed|e)\s?out\b|TimeoutError/i.test(text)) return 'timeout';
  return 'agent';
}

/** Text cut to `max` characters with a marker, so one huge traceback does not bloat the store. */
export function clip(text: string, max = 4000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}
