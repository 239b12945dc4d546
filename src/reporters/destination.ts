import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { makeDirs } from '../util/make-dirs.ts';
import type { ReportOptions } from './types.ts';

/** Writes a report where the options say (creating parent folders) and returns the text unchanged. */
export async function deliver(text: string, options: ReportOptions | undefined): Promise<string> {
  const destination = options?.destination;
  if (destination === undefined) return text;
  try {
    await makeDirs(dirname(destination));
    await writeFile(destination, text, 'utf8');
  } catch (cause) {
    // A bad -o path is the user's to fix: say which file and why, without a stack.
    throw new HarnessEvalError('usage', `cannot write the report to ${destination}: ${errorMessage(cause)}`, {
      cause,
      data: { destination },
    });
  }
  return text;
}
