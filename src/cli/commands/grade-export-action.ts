import { resolve } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import type { GradeExportFormat } from '../../reporters/grades-export.ts';
import { EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { openCliStore, storeLocation } from '../store-location.ts';

export interface GradeExportFlags {
  store?: string;
  format: GradeExportFormat;
  output?: string;
}

/** `grade export`: every grade of one experiment, to stdout or to `-o FILE`; records read a page at a time. */
export async function exportGrades(id: string, flags: GradeExportFlags, io: CliIO): Promise<number> {
  let store: Awaited<ReturnType<typeof openCliStore>> | undefined;
  try {
    store = await openCliStore(storeLocation(flags.store, io), { mustExist: true, readonly: true });
    const { resolveExperimentId } = await import('../../store/resolve-id.ts');
    const document = await store.getExperimentDocument(await resolveExperimentId(store, id));
    if (document === undefined)
      throw new HarnessEvalError(
        'not_found',
        `no experiment ${id} in the store (see: harnesseval runs list)`,
      );
    const [{ renderGradeExport }, { recordPages }] = await Promise.all([
      import('../../reporters/grades-export.ts'),
      import('../../store/record-pages.ts'),
    ]);
    const { text, grades } = await renderGradeExport(
      document.id,
      recordPages(store, document.id),
      flags.format,
    );
    if (flags.output === undefined || flags.output === '-') {
      io.stdout.write(text);
      return EXIT.ok;
    }
    const { deliver } = await import('../../reporters/destination.ts');
    await deliver(text, { destination: resolve(io.cwd, flags.output) });
    io.stderr.write(`wrote ${grades} grades of ${document.id} to ${flags.output}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    await store?.close();
  }
}
