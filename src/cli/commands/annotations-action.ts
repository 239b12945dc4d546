import { resolve } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import type { GradeExportFormat } from '../../reporters/grades-export.ts';
import { EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { openCliStore, storeLocation } from '../store-location.ts';

export interface AnnotationExportFlags {
  store?: string;
  format: GradeExportFormat;
  output?: string;
}

/** `annotations export`: every annotation of one experiment, to stdout or to `-o FILE`. */
export async function exportAnnotations(
  id: string,
  flags: AnnotationExportFlags,
  io: CliIO,
): Promise<number> {
  let store: Awaited<ReturnType<typeof openCliStore>> | undefined;
  try {
    store = await openCliStore(storeLocation(flags.store, io), { mustExist: true, readonly: true });
    const { resolveExperimentId } = await import('../../store/resolve-id.ts');
    const experimentId = await resolveExperimentId(store, id);
    if ((await store.getExperimentDocument(experimentId)) === undefined)
      throw new HarnessEvalError(
        'not_found',
        `no experiment ${id} in the store (see: harnesseval runs list)`,
      );
    const { annotationRows, renderAnnotationExport } = await import('../../reporters/annotations-export.ts');
    const rows = annotationRows(
      await store.listAnnotations(experimentId),
      await store.listRecordSummaries(experimentId),
    );
    const text = renderAnnotationExport(rows, flags.format);
    if (flags.output === undefined || flags.output === '-') {
      io.stdout.write(text);
      return EXIT.ok;
    }
    const { deliver } = await import('../../reporters/destination.ts');
    await deliver(text, { destination: resolve(io.cwd, flags.output) });
    io.stderr.write(`wrote ${rows.length} annotations of ${experimentId} to ${flags.output}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    await store?.close();
  }
}
