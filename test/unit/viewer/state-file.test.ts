import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loopbackOrigin,
  removeViewerState,
  runningViewerOrigin,
  viewerStateFile,
  writeViewerState,
} from '../../../src/viewer/state-file.ts';

describe('the viewer state file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-viewer-state-'));
    file = viewerStateFile(join(dir, 'store.db'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('accepts only http://127.0.0.1:PORT, without path, query or credentials', () => {
    expect(loopbackOrigin('http://127.0.0.1:4173/x?token=t')).toBe('http://127.0.0.1:4173');
    expect(loopbackOrigin('http://user:pw@127.0.0.1:4173')).toBe('http://127.0.0.1:4173');
    for (const bad of [
      'http://localhost:4173',
      'http://10.0.0.1:4173',
      'https://127.0.0.1:1',
      'http://127.0.0.1',
      'x',
    ])
      expect(loopbackOrigin(bad), bad).toBeUndefined();
  });

  it('round-trips this process as the running viewer and is removed only by its writer', async () => {
    await writeViewerState(file, 'http://127.0.0.1:4173');
    expect(await runningViewerOrigin(file)).toBe('http://127.0.0.1:4173');
    const other = { ...JSON.parse(await readFile(file, 'utf8')), pid: 1 };
    await writeFile(file, JSON.stringify(other));
    await removeViewerState(file);
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(1);
  });

  it('ignores a viewer on another host, a dead process, a broken file and no file', async () => {
    await writeViewerState(file, 'http://0.0.0.0:4173');
    expect(await runningViewerOrigin(file)).toBeUndefined(); // never written
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(file, JSON.stringify({ origin: 'http://127.0.0.1:1', pid: dead, started_at: 'x' }));
    expect(await runningViewerOrigin(file)).toBeUndefined();
    await writeFile(
      file,
      JSON.stringify({ origin: 'http://evil.example:80', pid: process.pid, started_at: 'x' }),
    );
    expect(await runningViewerOrigin(file)).toBeUndefined();
    await writeFile(file, '{not json');
    expect(await runningViewerOrigin(file)).toBeUndefined();
    await rm(file);
    expect(await runningViewerOrigin(file)).toBeUndefined();
  });
});
