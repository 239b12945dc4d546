import { z } from 'zod';
import type { Diagnostic, Severity } from './diagnostic.ts';

// The zod form of a diagnostic, for library users who validate `--format json` output. The
// `Diagnostic` interface itself lives in diagnostic.ts without zod: every command's error path
// formats diagnostics, and the CLI must start without loading zod.

export const SeveritySchema = z.enum(['error', 'warning', 'info']);

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

// The schema and the interface must describe the same object, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSeverity: Same<z.infer<typeof SeveritySchema>, Severity> = true;
const sameDiagnostic: Same<z.infer<typeof DiagnosticSchema>, Diagnostic> = true;
void sameSeverity;
void sameDiagnostic;
