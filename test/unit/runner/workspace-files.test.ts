import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  copyCodebase,
  escapingLinks,
  isInside,
  readInside,
  writeInside,
} from '../../../src/runner/workspace-files.ts';

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'he-wsfiles-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('isInside', () => {
  it('tells a path inside a root from one beside or above it', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c/d')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/a/b/../c')).toBe(false);
  });
});

describe('copyCodebase and escapingLinks', () => {
  it('copies files and folders, turns links into links inside the copy, and skips node_modules', async () => {
    const from = join(root, 'starter');
    await mkdir(join(from, 'src/deep'), { recursive: true });
    await mkdir(join(from, 'node_modules/x'), { recursive: true });
    await writeFile(join(from, 'src/a.txt'), 'a');
    await symlink('src/a.txt', join(from, 'a-link'));
    await symlink(join(from, 'src/deep'), join(from, 'abs-inside'));
    const to = join(root, 'copy');
    await mkdir(to);
    await copyCodebase(from, to);
    expect(await readFile(join(to, 'src/a.txt'), 'utf8')).toBe('a');
    expect(await readlink(join(to, 'abs-inside'))).toBe('src/deep');
    expect((await lstat(join(to, 'a-link'))).isSymbolicLink()).toBe(true);
    await writeFile(join(to, 'a-link'), 'changed');
    expect(await readFile(join(from, 'src/a.txt'), 'utf8')).toBe('a');
    await expect(lstat(join(to, 'node_modules'))).rejects.toThrow();
    expect(await escapingLinks(from)).toEqual([]);
  });

  it('names every link that leaves the codebase, and refuses to copy one', async () => {
    const from = join(root, 'starter');
    await mkdir(join(from, 'src'), { recursive: true });
    await symlink('/etc/hostname', join(from, 'abs'));
    await symlink('../../elsewhere', join(from, 'src/up'));
    expect((await escapingLinks(from)).sort((a, b) => a.link.localeCompare(b.link))).toEqual([
      { link: 'abs', target: '/etc/hostname' },
      { link: 'src/up', target: '../../elsewhere' },
    ]);
    const to = join(root, 'copy');
    await mkdir(to);
    await expect(copyCodebase(from, to)).rejects.toThrow(/points outside the codebase/);
  });
});

describe('writeInside and readInside', () => {
  it('replaces planted folder and file links by real ones, leaving their targets alone', async () => {
    const workspace = join(root, 'ws');
    const victim = join(root, 'victim');
    await mkdir(workspace);
    await mkdir(victim);
    await writeFile(join(victim, 't.txt'), 'victim');
    await symlink(victim, join(workspace, 'test'));
    expect(await readInside(workspace, 'test/t.txt')).toBeUndefined();
    await writeInside(workspace, 'test/t.txt', Buffer.from('restored'));
    expect((await lstat(join(workspace, 'test'))).isDirectory()).toBe(true);
    expect(await readFile(join(victim, 't.txt'), 'utf8')).toBe('victim');
    expect((await readInside(workspace, 'test/t.txt'))?.toString()).toBe('restored');

    await rm(join(workspace, 'test/t.txt'));
    await symlink(join(victim, 't.txt'), join(workspace, 'test/t.txt'));
    expect(await readInside(workspace, 'test/t.txt')).toBeUndefined();
    await writeInside(workspace, 'test/t.txt', Buffer.from('again'));
    expect(await readFile(join(victim, 't.txt'), 'utf8')).toBe('victim');
    expect((await readInside(workspace, 'test/t.txt'))?.toString()).toBe('again');
  });

  it('refuses a path that climbs out', async () => {
    await expect(writeInside(root, '../x', Buffer.from(''))).rejects.toThrow(/not a path inside/);
  });
});
