import { readFile, rm, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { pidExists } from '../util/process-identity.ts';

/**
 * A running viewer announces itself in a small file next to its SQLite store
 * (`harnesseval.db.viewer.json`), so that `harnesseval report … -o report.html` can link the
 * static report into it. The file holds the origin and the process id only — never the token,
 * which stays in the printed URL — and only a viewer on 127.0.0.1 writes one: a static file is
 * passed around, and a link in it must not lead anywhere but this machine.
 */
export const ViewerStateSchema = z.object({
  origin: z.string(),
  pid: z.number().int().positive(),
  started_at: z.string(),
});
export type ViewerState = z.infer<typeof ViewerStateSchema>;

/** Where the viewer of a SQLite store announces itself. */
export function viewerStateFile(storePath: string): string {
  return `${storePath}.viewer.json`;
}

/** `http://127.0.0.1:PORT` for a URL on 127.0.0.1 (any path, query or credentials dropped); undefined otherwise. */
export function loopbackOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' || parsed.hostname !== '127.0.0.1' || parsed.port === '') return undefined;
  return `http://127.0.0.1:${parsed.port}`;
}

/** `--viewer URL` as given on the command line: a 127.0.0.1 origin, or a usage error. */
export function viewerOriginFlag(url: string): string {
  const origin = loopbackOrigin(url);
  if (origin === undefined)
    throw new HarnessEvalError(
      'usage',
      `--viewer: expected the viewer's http://127.0.0.1:PORT address, got "${url}" (a report links only into a viewer on this machine)`,
    );
  return origin;
}

export async function writeViewerState(file: string, origin: string): Promise<void> {
  if (loopbackOrigin(origin) === undefined) return;
  const state: ViewerState = { origin, pid: process.pid, started_at: new Date().toISOString() };
  await writeFile(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
}

/** Removes the file if this process wrote it (a second viewer on the same store may have since). */
export async function removeViewerState(file: string): Promise<void> {
  const state = await readState(file);
  if (state?.pid === process.pid) await rm(file, { force: true });
}

async function readState(file: string): Promise<ViewerState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = ViewerStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin of the viewer running on this store, or undefined: no file, a file that does not
 * parse, a process that has ended (a viewer killed without cleaning up), or an origin that is not
 * 127.0.0.1 (a file someone edited).
 */
export async function runningViewerOrigin(file: string): Promise<string | undefined> {
  const state = await readState(file);
  if (state === undefined || !pidExists(state.pid)) return undefined;
  return loopbackOrigin(state.origin);
}
