import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopCluster } from '../helpers/postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this test run's PostgreSQL cluster; it starts when a test first asks for a database. */
    harnessevalPostgresRoot: string;
  }
}

const PREFIX = 'harnesseval-pg-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Clusters left by a test run that was killed before its teardown (its vitest process is gone). */
async function stopOrphans(): Promise<void> {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, 'owner.pid');
    if (!existsSync(ownerFile)) continue;
    const owner = Number(readFileSync(ownerFile, 'utf8'));
    if (!Number.isInteger(owner) || alive(owner)) continue;
    await stopCluster(dir).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * vitest globalSetup: one PostgreSQL cluster per test run, started lazily by the first test file
 * that needs it (test/helpers/postgres.ts), so a run without PostgreSQL tests pays nothing, and
 * stopped here when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await stopOrphans();
  const root = await mkdtemp(join(tmpdir(), PREFIX));
  await writeFile(join(root, 'owner.pid'), String(process.pid));
  project.provide('harnessevalPostgresRoot', root);
  return async () => {
    try {
      await stopCluster(root);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  };
}
