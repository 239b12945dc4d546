import { z } from 'zod';

export const SeveritySchema = z.enum(['error', 'warning', 'info']);
export type Severity = z.infer<typeof SeveritySchema>;

/**
 * One located problem in a user file: `file:line:col: field.path: message (expected ...)`.
 * `line` and `col` are 1-based; 0 means "the whole file".
 */
export const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  path: z.string(),
  message: z.string(),
  expected: z.string().optional(),
  severity: SeveritySchema.default('error'),
  /** A stable rule code for lint findings, e.g. `duplicate-id`. */
  code: z.string().optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** Renders a diagnostic in the one format every command uses. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.col > 0 ? d.col : 1}` : d.file;
  const field = d.path === '' ? '' : `${d.path}: `;
  const expected = d.expected === undefined ? '' : ` (expected ${d.expected})`;
  const code = d.code === undefined ? '' : ` [${d.code}]`;
  const severity = d.severity === 'error' ? '' : `${d.severity}: `;
  return `${where}: ${severity}${field}${d.message}${expected}${code}`;
}
