import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { type Task, TaskSchema } from '../../../src/core/task.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { createWorkspace, protectedFiles, restoreProtectedFiles } from '../../../src/runner/workspace.ts';

let codebase = '';
beforeAll(async () => {
  codebase = await mkdtemp(join(tmpdir(), 'he-codebase-'));
  await mkdir(join(codebase, 'test/acceptance'), { recursive: true });
  // The acceptance test passes only when the harness has written src/answer.txt.
  await writeFile(
    join(codebase, 'test/acceptance/ac-01.mjs'),
    "import { readFileSync } from 'node:fs';\nprocess.exit(readFileSync('src/answer.txt', 'utf8').trim() === '42' ? 0 : 1);\n",
  );
  await writeFile(join(codebase, 'test/acceptance/ac-02.mjs'), 'process.exit(0);\n');
  await mkdir(join(codebase, 'src'));
  await writeFile(join(codebase, 'src/answer.txt'), '');
});
afterAll(async () => {
  await rm(codebase, { recursive: true, force: true });
});

function task(commands: string[][], protect: string[] | null = ['test/acceptance/*']): Task {
  return TaskSchema.parse({
    id: 'answer',
    input: 'write 42 into src/answer.txt',
    files: { codebase },
    criteria: commands.map((command, i) => ({ id: `ac-0${i + 1}`, command })),
    ...(protect === null ? {} : { protected_files: protect }),
  });
}

describe('protectedFiles', () => {
  it('lists the codebase files the globs match, and none without globs', async () => {
    expect(await protectedFiles(task([]))).toEqual([
      'test/acceptance/ac-01.mjs',
      'test/acceptance/ac-02.mjs',
    ]);
    expect(await protectedFiles(task([], ['test/*/ac-02.mjs', 'src/answer.txt']))).toEqual([
      'src/answer.txt',
      'test/acceptance/ac-02.mjs',
    ]);
    expect(await protectedFiles(task([], null))).toEqual([]);
    expect(await protectedFiles(TaskSchema.parse({ id: 'x', input: 'y', protected_files: ['*'] }))).toEqual(
      [],
    );
  });
});

describe('restoreProtectedFiles', () => {
  it('puts back tests the harness changed, deleted or replaced, and leaves untouched ones alone', async () => {
    const t = task([
      ['node', 'test/acceptance/ac-01.mjs'],
      ['node', 'test/acceptance/ac-02.mjs'],
    ]);
    const workspace = await createWorkspace(t, { fallbackDir: codebase });
    if (workspace === undefined) throw new Error('no workspace');
    try {
      expect(await restoreProtectedFiles(t, workspace.path)).toEqual([]);
      await writeFile(join(workspace.path, 'test/acceptance/ac-01.mjs'), 'process.exit(0);\n');
      await rm(join(workspace.path, 'test/acceptance/ac-02.mjs'));
      await mkdir(join(workspace.path, 'test/acceptance/ac-02.mjs'));
      expect(await restoreProtectedFiles(t, workspace.path)).toEqual([
        'test/acceptance/ac-01.mjs',
        'test/acceptance/ac-02.mjs',
      ]);
      expect(await readFile(join(workspace.path, 'test/acceptance/ac-01.mjs'), 'utf8')).toContain(
        'answer.txt',
      );
      expect(await readFile(join(workspace.path, 'test/acceptance/ac-02.mjs'), 'utf8')).toBe(
        'process.exit(0);\n',
      );
    } finally {
      await workspace.dispose(false);
    }
  });
});

describe('a harness that edits a protected acceptance test instead of doing the task', () => {
  const harness = HarnessConfigSchema.parse({ name: 'h', version: '1', adapter: 'function' });
  const agentThat = (act: (workspace: string) => Promise<void>): AgentV1 => ({
    specificationVersion: 'v1',
    name: 'h',
    async run(_input, ctx) {
      if (ctx.workspace !== undefined) await act(ctx.workspace);
      return agentOutput({ output: 'done' });
    },
  });
  const suite = () =>
    SuiteSchema.parse({ id: 's', name: 's', tasks: [task([['node', 'test/acceptance/ac-01.mjs']])] });

  it('fails the criterion, and the record names the file it put back', async () => {
    const cheat = agentThat(async (ws) =>
      writeFile(join(ws, 'test/acceptance/ac-01.mjs'), 'process.exit(0);\n'),
    );
    const experiment = await runExperiment({ suite: suite(), harness, agent: cheat });
    const record = experiment.records[0];
    expect(record?.criteria[0]?.status).toBe('failed');
    expect(record?.metadata['restored_files']).toEqual(['test/acceptance/ac-01.mjs']);
  });

  it('keeps what the harness changed in files that are not protected', async () => {
    const unprotected = SuiteSchema.parse({
      id: 's',
      name: 's',
      tasks: [task([['node', 'test/acceptance/ac-01.mjs']], null)],
    });
    const cheat = agentThat(async (ws) =>
      writeFile(join(ws, 'test/acceptance/ac-01.mjs'), 'process.exit(0);\n'),
    );
    const experiment = await runExperiment({ suite: unprotected, harness, agent: cheat });
    expect(experiment.records[0]?.criteria[0]?.status).toBe('passed');
    expect(experiment.records[0]?.metadata['restored_files']).toBeUndefined();
  });

  it('passes an honest harness and notes nothing', async () => {
    const honest = agentThat(async (ws) => writeFile(join(ws, 'src/answer.txt'), '42\n'));
    const experiment = await runExperiment({ suite: suite(), harness, agent: honest });
    const record = experiment.records[0];
    expect(record?.criteria[0]?.status).toBe('passed');
    expect(record?.metadata['restored_files']).toBeUndefined();
  });
});
