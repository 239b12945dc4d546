import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli } from '../helpers/run-cli.ts';
import { STACK_TRACE, scratch } from './helpers.ts';

// Symbolic links and path escapes: a starter codebase's links must not let a harness write into
// the starter (or anywhere else), and restoring protected files must never follow a link the
// harness planted. The starter is hashed before the run and compared after every trial.

let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('paths'));
});
afterAll(() => remove());

/** sha256 over every path, link target and file content of a tree (links not followed). */
async function treeHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  const dirs = [''];
  while (dirs.length > 0) {
    const rel = dirs.pop() ?? '';
    for (const name of (await readdir(join(root, rel))).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const stat = await lstat(join(root, path));
      hash.update(`${path}\0`);
      if (stat.isSymbolicLink()) hash.update(`-> ${await readlink(join(root, path))}\0`);
      else if (stat.isDirectory()) dirs.push(path);
      else hash.update(await readFile(join(root, path)));
    }
  }
  return hash.digest('hex');
}

/** A harness (node script) that runs `steps` in its workspace; it never goes through a shell. */
async function harness(name: string, script: string): Promise<string> {
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, script);
  const config = join(dir, `${name}.yaml`);
  await writeFile(
    config,
    stringify({ name, version: '1', adapter: 'cli', options: { command: process.execPath, args: [file] } }),
  );
  return config;
}

async function taskSpec(name: string, spec: Record<string, unknown>): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(
    file,
    stringify({ id: name, domain: 'adversarial', description: 'write through links', ...spec }),
  );
  return file;
}

describe('starter symlinks', () => {
  it('a relative link inside the starter stays inside each copy: the starter is unchanged after every epoch', async () => {
    const starter = join(dir, 'starter-rel');
    await mkdir(join(starter, 'src'), { recursive: true });
    await mkdir(join(starter, 'test'));
    await writeFile(join(starter, 'src/a.txt'), 'original a\n');
    await symlink('../src/a.txt', join(starter, 'test/rel-link-to-a.txt'));
    const before = await treeHash(starter);
    // Each trial reports what the starter holds as it starts, then writes through the link.
    const config = await harness(
      'writer-rel',
      `import { readFileSync, writeFileSync } from 'node:fs';
const seen = readFileSync(${JSON.stringify(join(starter, 'src/a.txt'))}, 'utf8').trim();
writeFileSync('test/rel-link-to-a.txt', 'HACKED via rel link\\n');
process.stdout.write(seen);`,
    );
    const task = await taskSpec('rel-link', {
      inputs: { codebase: 'ref:starter-rel' },
      acceptance_criteria: [
        {
          id: 'ac-01',
          description: 'the write landed in the copy',
          verification: 'automated',
          command: ['grep', '-q', 'HACKED', 'src/a.txt'],
        },
      ],
    });
    const r = await cli(
      [
        'run',
        task,
        '--harness',
        config,
        '-j',
        '1',
        '--epochs',
        '3',
        '--no-store',
        '--no-progress',
        '--reporter',
        'json',
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    const records = (
      JSON.parse(r.stdout) as { records: { epoch: number; outcome: string; output: { output: string } }[] }
    ).records;
    expect(records.map((x) => [x.epoch, x.outcome, x.output.output])).toEqual([
      [0, 'pass', 'original a'],
      [1, 'pass', 'original a'],
      [2, 'pass', 'original a'],
    ]);
    expect(await treeHash(starter)).toBe(before);
  }, 60_000);

  it('a starter link that leaves the codebase is refused before any trial, located at the task', async () => {
    const starter = join(dir, 'starter-out');
    await mkdir(join(starter, 'src'), { recursive: true });
    await mkdir(join(dir, 'outside'), { recursive: true });
    await writeFile(join(dir, 'outside/secret.txt'), 'secret\n');
    await symlink('../../outside', join(starter, 'src/dir-outside-link'));
    const config = await harness('noop', "process.stdout.write('ok');");
    const task = await taskSpec('out-link', {
      inputs: { codebase: 'ref:starter-out' },
      acceptance_criteria: [
        { id: 'ac-01', description: 'x', type: 'functional', verification: 'automated', command: ['true'] },
      ],
    });
    const r = await cli(['run', task, '--harness', config, '--no-store', '--no-progress'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /out-link\.yaml:\d+:\d+: files\.codebase: .*src\/dir-outside-link -> \.\.\/\.\.\/outside points outside/,
    );
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(await readFile(join(dir, 'outside/secret.txt'), 'utf8')).toBe('secret\n');
  }, 30_000);
});

describe('protected-file restore', () => {
  it('never writes through a directory link the harness planted', async () => {
    const starter = join(dir, 'starter-protected');
    await mkdir(join(starter, 'test'), { recursive: true });
    await writeFile(join(starter, 'test/t.txt'), 'test content\n');
    const victim = join(dir, 'victim');
    await mkdir(victim);
    await writeFile(join(victim, 't.txt'), 'VICTIM FILE\n');
    const config = await harness(
      'planter',
      `import { rmSync, symlinkSync } from 'node:fs';
rmSync('test', { recursive: true, force: true });
symlinkSync(${JSON.stringify(victim)}, 'test');
process.stdout.write('planted');`,
    );
    const task = await taskSpec('protected', {
      inputs: { codebase: 'ref:starter-protected' },
      protected_files: ['test/t.txt'],
      acceptance_criteria: [
        {
          id: 'ac-01',
          description: 'the protected file is the task’s again, in a real folder',
          verification: 'automated',
          command: ['grep', '-q', 'test content', 'test/t.txt'],
        },
      ],
    });
    const r = await cli(
      ['run', task, '--harness', config, '--no-store', '--no-progress', '--reporter', 'json'],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    const record = (
      JSON.parse(r.stdout) as { records: { outcome: string; metadata: Record<string, unknown> }[] }
    ).records[0];
    expect(record?.outcome).toBe('pass');
    expect(record?.metadata['restored_files']).toEqual(['test/t.txt']);
    expect(await readFile(join(victim, 't.txt'), 'utf8')).toBe('VICTIM FILE\n');
    expect(await readdir(victim)).toEqual(['t.txt']);
  }, 30_000);

  it('never writes through a file link the harness planted in place of a protected file', async () => {
    const starter = join(dir, 'starter-filelink');
    await mkdir(join(starter, 'test'), { recursive: true });
    await writeFile(join(starter, 'test/t.txt'), 'test content\n');
    const victim = join(dir, 'victim-file.txt');
    await writeFile(victim, 'VICTIM FILE\n');
    const config = await harness(
      'file-planter',
      `import { rmSync, symlinkSync } from 'node:fs';
rmSync('test/t.txt');
symlinkSync(${JSON.stringify(victim)}, 'test/t.txt');
process.stdout.write('planted');`,
    );
    const task = await taskSpec('protected-file', {
      inputs: { codebase: 'ref:starter-filelink' },
      protected_files: ['test/t.txt'],
      acceptance_criteria: [
        {
          id: 'ac-01',
          description: 'restored',
          verification: 'automated',
          command: ['grep', '-q', 'test content', 'test/t.txt'],
        },
      ],
    });
    const r = await cli(['run', task, '--harness', config, '--no-store', '--no-progress'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('VICTIM FILE\n');
  }, 30_000);
});
