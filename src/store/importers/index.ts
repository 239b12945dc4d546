import type { ImportedRuns, ImportOptions, ImportTool } from './types.ts';

export {
  IMPORT_TOOLS,
  type ImportedRuns,
  type ImportOptions,
  type ImportTool,
  type UnmappedField,
} from './types.ts';

/** Each tool's importer, loaded only when used (the Inspect one brings the zip reader). */
const IMPORTERS: Record<
  ImportTool,
  () => Promise<(path: string, options: ImportOptions) => Promise<ImportedRuns>>
> = {
  harbor: async () => (await import('./harbor.ts')).importHarborJob,
  inspect: async () => (await import('./inspect.ts')).importInspectLog,
  promptfoo: async () => (await import('./promptfoo.ts')).importPromptfoo,
};

/** Another tool's results at `path` as HarnessEval experiments (not yet stored, metrics not yet computed). */
export async function importRuns(
  tool: ImportTool,
  path: string,
  options: ImportOptions,
): Promise<ImportedRuns> {
  const importer = await IMPORTERS[tool]();
  return importer(path, options);
}
