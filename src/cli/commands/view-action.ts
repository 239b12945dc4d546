import { spawn } from 'node:child_process';
import { storeKind } from '../../store/location.ts';
import { EXIT, reportError } from '../exit.ts';
import { type CliIO, writeLine } from '../io.ts';
import { openCliStore, shownStore, storeLocation } from '../store-location.ts';
import type { ViewFlags } from './view.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Asks the desktop to open the URL (argv, never a shell); a failure only costs a message. */
function openBrowser(url: string, io: CliIO): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? undefined : 'xdg-open';
  if (command === undefined) {
    writeLine(io.stderr, 'harnesseval: --open is not supported here; open the URL above');
    return;
  }
  const child = spawn(command, [url], { shell: false, stdio: 'ignore', detached: true });
  child.on('error', () => writeLine(io.stderr, `harnesseval: could not run ${command}; open the URL above`));
  child.unref();
}

/** Serves the viewer until SIGINT/SIGTERM. */
export async function view(flags: ViewFlags, io: CliIO): Promise<number> {
  const location = storeLocation(flags.store, io);
  let store: Awaited<ReturnType<typeof openCliStore>>;
  try {
    store = await openCliStore(location, { mustExist: true, readonly: true, env: io.env });
  } catch (error) {
    return reportError(io, error);
  }
  try {
    const [{ startViewer }, { newToken }] = await Promise.all([
      import('../../viewer/server.ts'),
      import('../../viewer/security.ts'),
    ]);
    if (!LOOPBACK.has(flags.host))
      writeLine(
        io.stderr,
        `harnesseval: warning: listening on ${flags.host}, not 127.0.0.1: anyone who can reach it can read the store`,
      );
    const viewer = await startViewer({
      store,
      openWritableStore: () => openCliStore(location, { mustExist: true, env: io.env }),
      token: newToken(),
      host: flags.host,
      port: flags.port,
    });
    viewer.server.on('viewer-error', (error: unknown) => reportError(io, error));
    // A SQLite store gets a note of where its viewer runs, for the static HTML report's links.
    const { viewerStateFile, writeViewerState, removeViewerState } = await import(
      '../../viewer/state-file.ts'
    );
    const stateFile = storeKind(location) === 'sqlite' ? viewerStateFile(location) : undefined;
    if (stateFile !== undefined)
      await writeViewerState(stateFile, viewer.origin).catch(() =>
        writeLine(io.stderr, `harnesseval: could not write ${stateFile}; reports will not link here`),
      );
    writeLine(io.stdout, `HarnessEval viewer for ${shownStore(location)}`);
    writeLine(io.stdout, `open ${viewer.url}`);
    writeLine(io.stdout, '(the link carries the token that lets this browser save grades; Ctrl-C stops)');
    if (flags.open) openBrowser(viewer.url, io);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await viewer.close();
    if (stateFile !== undefined) await removeViewerState(stateFile).catch(() => undefined);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    await store.close();
  }
}
