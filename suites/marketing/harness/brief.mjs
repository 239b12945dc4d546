/**
 * What the marketing suite's scripted harnesses share: which piece the prompt asks for (it names
 * `briefs/<piece>.md`), and reading the prompt from stdin (the cli adapter sends it there).
 */
import { readFileSync } from 'node:fs';

/** The piece named by the prompt on stdin, e.g. `launch-email`; exits 2 when there is none. */
export function pieceFromStdin() {
  const prompt = readFileSync(0, 'utf8');
  const piece = /briefs\/([a-z0-9-]+)\.md/.exec(prompt)?.[1];
  if (piece === undefined) {
    process.stderr.write('the prompt names no brief (briefs/<piece>.md)\n');
    process.exit(2);
  }
  return piece;
}
