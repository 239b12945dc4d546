import { extname } from 'node:path';

// Kept apart from file-plugins.ts (which imports every registry) so the CLI can ask this on
// start-up for free: a dataset (`.jsonl`) never names plugins, and `validate` of one must not
// load the registries (test/integration/startup-modules-cli.test.ts).

const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Whether `file` is of a kind that can name plugin modules (`plugins:` in a suite or benchmark). */
export function mayNamePlugins(file: string): boolean {
  return DOCUMENT_EXTENSIONS.has(extname(file).toLowerCase());
}
