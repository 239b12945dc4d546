import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeskState } from './desk-schema.ts';

/**
 * Writes a desk's state to `file` atomically (temporary file + rename), so that a reader — a
 * check after the trial — never sees half a file. Without a file, a no-op.
 */
export function stateWriter(file: string | undefined): (state: DeskState) => void {
  if (file === undefined) return () => {};
  mkdirSync(dirname(file), { recursive: true });
  return (state) => {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(partial, file);
  };
}
