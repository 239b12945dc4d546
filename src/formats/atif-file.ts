import { readFile } from 'node:fs/promises';
import { HarnessEvalError } from '../core/errors.ts';
import { type AtifTrajectory, AtifTrajectorySchema } from './atif-schema.ts';
import { capDiagnostics, issuesToDiagnostics } from './issues.ts';
import { parseYamlSource } from './yaml-source.ts';

/** Reads one ATIF trajectory file; bad JSON or a field ATIF does not allow is a located error. */
export async function readAtifFile(path: string, shown: string): Promise<AtifTrajectory> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessEvalError('not_found', `cannot read ${shown}`, { cause: error });
  }
  const source = parseYamlSource(shown, text);
  if (source.diagnostics.length > 0)
    throw new HarnessEvalError('invalid_input', '', { diagnostics: [...source.diagnostics] });
  const parsed = AtifTrajectorySchema.safeParse(source.value, { reportInput: true });
  if (!parsed.success) {
    const diagnostics = issuesToDiagnostics(parsed.error.issues, shown, source.locate);
    throw new HarnessEvalError('invalid_input', '', { diagnostics: capDiagnostics(diagnostics, shown) });
  }
  return parsed.data;
}
