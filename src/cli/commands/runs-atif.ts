import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import { recordToAtif } from '../../formats/atif.ts';
import { safe } from '../../reporters/runs-view.ts';
import { redactSecrets } from '../../store/redact.ts';
import { type CliIO, writeLine } from '../io.ts';
import { resolveId, type StoreChoice, withStore } from './runs-actions.ts';

/** A file name from a task id and epoch: `org/name` has a slash, which must not make folders. */
function trajectoryFile(taskId: string, epoch: number): string {
  return `${taskId.replace(/[^A-Za-z0-9_.-]/g, '_')}__${epoch}.json`;
}

/** `runs export --format atif`: one ATIF v1.7 trajectory per trial, secrets scrubbed like JSON export. */
export async function exportAtif(
  io: CliIO,
  options: StoreChoice & { id: string; output?: string | undefined },
): Promise<void> {
  if (options.output === undefined || options.output === '-')
    throw new HarnessEvalError(
      'usage',
      '--format atif writes one file per trial: give the folder with -o <dir>',
    );
  const shown = options.output;
  const dir = resolve(io.cwd, shown);
  await withStore(io, options, 'existing', async (store, path) => {
    const id = await resolveId(store, options.id, path);
    const experiment = await store.getExperiment(id);
    if (experiment === undefined)
      throw new HarnessEvalError('not_found', `experiment ${id} vanished while reading`);
    try {
      await mkdir(dir, { recursive: true });
      for (const record of experiment.records) {
        const json = JSON.stringify(recordToAtif(record), null, 2);
        await writeFile(
          join(dir, trajectoryFile(record.task_id, record.epoch)),
          `${redactSecrets(json, io.env)}\n`,
        );
      }
    } catch (error) {
      throw new HarnessEvalError('store', `cannot write ${shown}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    writeLine(
      io.stderr,
      `Exported ${safe(id)} (${experiment.records.length} ATIF trajectories) to ${safe(shown)}`,
    );
  });
}
