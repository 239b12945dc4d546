import { type ModelScript, ModelScriptSchema } from '../core/model-script.ts';
import type { FileResult } from './benchmark.ts';
import { issuesToDiagnostics, type Locate } from './issues.ts';

// The schema lives in core/ (the gateway answers from it and may not import formats/); this module
// validates model script files against it.
export * from '../core/model-script.ts';

/** Validates a parsed model script with located diagnostics. */
export function modelScriptFileToScript(file: string, raw: unknown, locate: Locate): FileResult<ModelScript> {
  const parsed = ModelScriptSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success)
    return { ok: false, diagnostics: issuesToDiagnostics(parsed.error.issues, file, locate) };
  return { ok: true, value: parsed.data, count: parsed.data.turns.length };
}
