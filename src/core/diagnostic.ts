export type Severity = 'error' | 'warning' | 'info';

/**
 * One located problem in a user file: `file:line:col: field.path: message (expected ...)`.
 * `line` and `col` are 1-based; 0 means "the whole file". Zod-free (CLI start-up); the schema
 * is `DiagnosticSchema` in diagnostic-schema.ts.
 */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  path: string;
  message: string;
  expected?: string | undefined;
  severity: Severity;
  /** A stable rule code for lint findings, e.g. `duplicate-id`. */
  code?: string | undefined;
}

/** Renders a diagnostic in the one format every command uses. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.col > 0 ? d.col : 1}` : d.file;
  const field = d.path === '' ? '' : `${d.path}: `;
  const expected = d.expected === undefined ? '' : ` (expected ${d.expected})`;
  const code = d.code === undefined ? '' : ` [${d.code}]`;
  const severity = d.severity === 'error' ? '' : `${d.severity}: `;
  return `${where}: ${severity}${field}${d.message}${expected}${code}`;
}

/** Where a value sits in a document: keys and array indexes, outermost first. */
export type FieldPath = readonly PropertyKey[];

/**
 * The `path` of a diagnostic, in the one form every reader prints:
 * `tests[0].evaluators[1].options.pattern`.
 */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
