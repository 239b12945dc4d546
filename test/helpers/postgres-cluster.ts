import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A throw-away PostgreSQL cluster for tests and benchmarks: `initdb` into a folder, `pg_ctl start`
 * on a free port of 127.0.0.1, `pg_ctl stop` at the end. PostgreSQL refuses to run as root, so as
 * root every server command runs as the `postgres` user (`runuser`), which Debian's package creates.
 * Takes ~1.5 s (initdb) + ~0.2 s (start) on the 2-core dev VM.
 */

const run = promisify(execFile);

export interface FindBinOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Folders holding versioned installs (`<root>/<version>/bin`); default Debian's /usr/lib/postgresql. */
  readonly roots?: readonly string[];
}

/**
 * The folder with `initdb` and `pg_ctl`: `$HARNESSEVAL_PG_BIN`, else the newest version under
 * /usr/lib/postgresql (Debian), else /usr/local/pgsql/bin. Throws a message saying what to install.
 */
export function findPostgresBin(options: FindBinOptions = {}): string {
  const env = options.env ?? process.env;
  const explicit = env['HARNESSEVAL_PG_BIN'];
  const hasServer = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  if (explicit !== undefined && explicit !== '') {
    if (hasServer(explicit)) return explicit;
    throw new Error(`HARNESSEVAL_PG_BIN=${explicit} holds no initdb and pg_ctl`);
  }
  const looked: string[] = [];
  for (const root of options.roots ?? ['/usr/lib/postgresql']) {
    const versions = existsSync(root)
      ? readdirSync(root)
          .filter((name) => /^\d+$/.test(name))
          .sort((a, b) => Number(b) - Number(a))
      : [];
    for (const version of versions) {
      const dir = join(root, version, 'bin');
      if (hasServer(dir)) return dir;
    }
    looked.push(`${root}/*/bin`);
  }
  const fallback = '/usr/local/pgsql/bin';
  if (options.roots === undefined && hasServer(fallback)) return fallback;
  looked.push(fallback);
  throw new Error(
    `the PostgreSQL tests need a PostgreSQL server (initdb, pg_ctl); none found in ${looked.join(', ')}. ` +
      'Install it (Debian: apt-get install postgresql; .ci/run does) or set HARNESSEVAL_PG_BIN to its bin folder.',
  );
}

export interface ClusterOptions {
  /** An empty folder for the cluster (data, socket, log); its parent must let the `postgres` user through (/tmp does). */
  readonly dir: string;
  /**
   * Benchmarks keep PostgreSQL's defaults (fsync and synchronous commit on), so a commit costs
   * what it costs in production. Tests turn both off: nothing here must survive a power loss.
   */
  readonly durable?: boolean;
  /** More server settings (`-c name=value` each), e.g. a benchmark's `shared_preload_libraries`. */
  readonly settings?: readonly string[];
}

export interface RunningCluster {
  readonly port: number;
  /** The superuser's URL (trust authentication on 127.0.0.1); other roles need a password. */
  readonly adminUrl: string;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a server command, as the `postgres` user when we are root. */
async function asServerUser(command: string, args: readonly string[]): Promise<string> {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  try {
    const { stdout } = await run(file, argv, { timeout: 60_000 });
    return stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(`${command} ${args[0] ?? ''} failed: ${detail}`);
  }
}

async function serverUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** `postgres` superuser on the socket and on 127.0.0.1 without a password; every other role with one. */
const HBA = `local all all trust
host all postgres 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256
`;

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const bin = findPostgresBin();
  const pgDir = join(options.dir, 'pg');
  await mkdir(pgDir, { recursive: true });
  // The server user must reach its folder: the parent of a mkdtemp folder is 0700.
  await chmod(options.dir, 0o755);
  const owner = isRoot() ? await serverUser() : undefined;
  if (owner) await chown(pgDir, owner.uid, owner.gid);
  await chmod(pgDir, 0o700);
  const data = join(pgDir, 'data');
  await asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
    '--no-instructions',
  ]);
  const hba = join(data, 'pg_hba.conf');
  await writeFile(hba, HBA);
  if (owner) await chown(hba, owner.uid, owner.gid);
  const settings = options.durable
    ? []
    : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  let lastError: unknown;
  // A port found free can be taken before the server binds it: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      `-k ${pgDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=300',
      ...settings,
      ...(options.settings ?? []).map((setting) => `-c ${setting}`),
    ].join(' ');
    try {
      await asServerUser(join(bin, 'pg_ctl'), [
        'start',
        '-D',
        data,
        '-l',
        join(pgDir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        serverOptions,
      ]);
      return { port, adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres` };
    } catch (error) {
      lastError = error;
    }
  }
  const log = await readFile(join(pgDir, 'server.log'), 'utf8').catch(() => '');
  throw new Error(`${(lastError as Error).message}\n${log.split('\n').slice(-10).join('\n')}`);
}

/** Stops a cluster started in `dir` (a no-op if none runs there). */
export async function stopCluster(dir: string): Promise<void> {
  const data = join(dir, 'pg', 'data');
  if (!existsSync(join(data, 'postmaster.pid'))) return;
  const bin = findPostgresBin();
  // immediate: the data is thrown away, so no shutdown checkpoint.
  await asServerUser(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
}

/** Writes `text` so that a reader polling for `file` never sees half of it. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
