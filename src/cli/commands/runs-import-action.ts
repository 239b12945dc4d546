import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import { recordErrorKind } from '../../core/overall-score.ts';
import { SuiteSchema } from '../../core/suite.ts';
import { safe } from '../../reporters/runs-view.ts';
import { aggregateExperiment } from '../../scoring/experiment-aggregate.ts';
import type { ImportTool, UnmappedField } from '../../store/importers/index.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { type CliIO, writeLine } from '../io.ts';
import { type StoreChoice, withStore } from './runs-actions.ts';

export interface ForeignImportOptions extends StoreChoice {
  readonly tool: ImportTool;
  readonly path: string;
  readonly replace: boolean;
  readonly suiteId?: string | undefined;
  readonly passThreshold?: number | undefined;
  readonly infraExceptions?: readonly string[] | undefined;
}

/** Metrics, overall score and outcome, computed as `run` does at the end of a run. */
function withMetrics(experiment: Experiment): Experiment {
  const suite = SuiteSchema.parse({
    id: experiment.suite.id,
    tasks: experiment.suite.tasks.map((t) => ({ id: t.id, input: '', weight: t.weight })),
  });
  const aggregate = aggregateExperiment({
    suite,
    records: experiment.records,
    tasks: suite.tasks,
    epochs: experiment.settings.epochs,
  });
  return {
    ...experiment,
    metrics: aggregate.metrics,
    scores: aggregate.scores,
    violations: aggregate.violations,
    ...(aggregate.outcome === undefined ? {} : { outcome: aggregate.outcome }),
  };
}

/** "3 pass, 1 fail, 2 error (1 infra, 1 timeout)". */
function outcomeLine(experiment: Experiment): string {
  const count = (o: string) => experiment.records.filter((r) => r.outcome === o).length;
  const kinds = new Map<string, number>();
  for (const r of experiment.records)
    if (r.outcome === 'error')
      kinds.set(recordErrorKind(r) ?? 'unknown', (kinds.get(recordErrorKind(r) ?? 'unknown') ?? 0) + 1);
  const detail = kinds.size === 0 ? '' : ` (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')})`;
  return `${count('pass')} pass, ${count('fail')} fail, ${count('error')} error${detail}`;
}

export function unmappedLines(unmapped: readonly UnmappedField[]): string[] {
  if (unmapped.length === 0) return ['Every field read was mapped.'];
  return [
    `Not mapped (${unmapped.length} field(s); kept in record metadata where noted):`,
    ...unmapped.map((u) => `  ${u.count} x ${safe(u.field)}: ${safe(u.reason)}`),
  ];
}

/** Stores every experiment or none: one that fails removes those stored before it. */
async function storeAll(
  store: ExperimentStore,
  experiments: readonly Experiment[],
  replace: boolean,
  where: string,
) {
  for (const experiment of experiments) {
    if ((await store.getExperimentDocument(experiment.id)) !== undefined && !replace)
      throw new HarnessEvalError(
        'invalid_input',
        `experiment ${experiment.id} already exists in ${where} (imported before?); pass --replace to overwrite it`,
        { data: { experimentId: experiment.id, reason: 'exists' } },
      );
  }
  const stored: string[] = [];
  try {
    for (const experiment of experiments) {
      if (replace && (await store.getExperimentDocument(experiment.id)) !== undefined)
        await store.deleteExperiment(experiment.id);
      await store.createExperiment(experiment);
      stored.push(experiment.id);
    }
  } catch (error) {
    for (const id of stored) await store.deleteExperiment(id).catch(() => undefined);
    throw error;
  }
}

/** `runs import --from harbor|inspect|promptfoo PATH`: another tool's results as experiments. */
export async function importForeignRuns(io: CliIO, options: ForeignImportOptions): Promise<void> {
  const path = resolve(io.cwd, options.path);
  if (!existsSync(path)) throw new HarnessEvalError('not_found', `no such file or folder: ${options.path}`);
  const { importRuns } = await import('../../store/importers/index.ts');
  // Everything is read and checked before the store is opened: a bad file leaves no store behind
  // and nothing half-written in one.
  const imported = await importRuns(options.tool, path, {
    shown: options.path,
    suiteId: options.suiteId,
    passThreshold: options.passThreshold,
    infraExceptions: options.infraExceptions,
  });
  const experiments = imported.experiments.map(withMetrics);
  await withStore(io, options, 'create', async (store, where) => {
    await storeAll(store, experiments, options.replace, where);
    for (const e of experiments)
      writeLine(
        io.stdout,
        `Imported ${safe(e.id)} (${safe(e.harness.name)}${e.harness.model ? ` ${safe(e.harness.model)}` : ''}, suite ${safe(e.suite.id)}: ${e.records.length} records, ${outcomeLine(e)}) into ${safe(where)}`,
      );
  });
  for (const line of unmappedLines(imported.unmapped)) writeLine(io.stdout, line);
}
