import { readFile } from 'node:fs/promises';
import { HarnessEvalError } from '../core/errors.ts';
import { type AtifTrajectory, AtifTrajectorySchema } from './atif-schema.ts';
import { capDiagnostics, issuesToDiagnostics } from './issues.ts';
import { parseYamlSource } from './yaml-source.ts';

/** An ATIF trajectory from its text; bad JSON or a field ATIF does not allow is located in `shown`. */
export function parseAtifText(text: string, shown: string): AtifTrajectory {
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

/** Reads one ATIF trajectory file (a Harbor job's `agent/trajectory.json`), located like its text. */
export async function readAtifFile(path: string, shown: string): Promise<AtifTrajectory> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessEvalError('not_found', `cannot read ${shown}`, { cause: error });
  }
  return parseAtifText(text, shown);
}
