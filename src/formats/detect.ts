import { extname } from 'node:path';

/** The input file kinds HarnessEval reads. */
export const FILE_KINDS = [
  'eval-case-v0',
  'benchmark',
  'suite',
  'task-spec',
  'rubric',
  'harness',
  'model-script',
  'harbor',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export function isFileKind(value: string): value is FileKind {
  return (FILE_KINDS as readonly string[]).includes(value);
}

const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson']);
const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Whether `file` is named like a YAML or JSON document (a suite, a benchmark, a harness): the
 * files that can name plugin modules or carry thresholds. A dataset or a folder never does.
 */
export function hasDocumentExtension(file: string): boolean {
  return DOCUMENT_EXTENSIONS.has(extname(file).toLowerCase());
}

/**
 * Detects a file's kind from its first line without parsing the whole file: a JSON object on
 * the first non-blank line that parses on its own and carries `schema_version` is a JSONL
 * dataset. Anything else is a document whose kind `detectDocumentKind` reads from its keys.
 */
export function isJsonlDataset(path: string, head: string): boolean {
  if (JSONL_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  const first = head
    .replace(/^\uFEFF/, '')
    .split('\n')
    .find((l) => l.trim() !== '');
  if (first === undefined || !first.trim().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(first);
    return value !== null && typeof value === 'object' && 'schema_version' in value;
  } catch {
    return false;
  }
}

/** The kind of a parsed YAML/JSON document, by its top-level keys; undefined when unknown. */
export function detectDocumentKind(value: unknown): Exclude<FileKind, 'eval-case-v0' | 'harbor'> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const has = (key: string) => Object.hasOwn(value, key);
  if (has('tests') && has('version')) return 'benchmark';
  if (has('suite_id')) return 'suite';
  if (has('acceptance_criteria') || (has('id') && has('domain'))) return 'task-spec';
  if (has('rubric') && !has('tasks')) return 'rubric';
  if (has('adapter')) return 'harness';
  if (has('turns')) return 'model-script';
  return undefined;
}

/** `detectFormat(path, text)`: the kind of a file from its content (and its extension for JSONL). */
export async function detectFormat(path: string, text: string): Promise<FileKind | undefined> {
  if (isJsonlDataset(path, text.slice(0, 64 * 1024))) return 'eval-case-v0';
  const { parseYamlSource } = await import('./yaml-source.ts');
  return detectDocumentKind(parseYamlSource(path, text).value);
}
