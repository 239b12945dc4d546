import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let cwd: string;

function runExample(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // `harnesseval` resolves to this package's dist/ through its exports (a self-reference).
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'examples/basic-eval.ts')], {
      cwd,
      shell: false,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('build first: npx tsdown');
  // Run it from a scratch folder that sees the suites (and tsx), so runs/ is written there.
  cwd = await mkdtemp(join(tmpdir(), 'basic-eval-'));
  await symlink(join(root, 'suites'), join(cwd, 'suites'), 'dir');
  // `--import tsx` resolves from the working directory.
  await symlink(join(root, 'node_modules'), join(cwd, 'node_modules'), 'dir');
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('examples/basic-eval.ts (the seed-004 snippet)', () => {
  it('runs the harness on the task, prints the summary and saves a valid run record', async () => {
    const { code, stdout, stderr } = await runExample();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/task auth-implementation — reference-solution-harness v0\.3\.1/);
    expect(stdout).toMatch(/acceptance criteria: 5\/6 passed/);
    expect(stdout).toMatch(/prompts: 1 \(1 planned, 0 unplanned\)/);
    expect(stdout).toMatch(/pending ac-06/);
    const saved = await readdir(join(cwd, 'runs'));
    expect(saved).toHaveLength(1);
    // The saved file is the experiment export (`report` and `runs import` read it): one record.
    const json: unknown = JSON.parse(await readFile(join(cwd, 'runs', saved[0]!), 'utf8'));
    const experiment = ExperimentSchema.parse(json);
    expect(experiment.records).toHaveLength(1);
    const record = experiment.records[0]!;
    expect(record.task_id).toBe('auth-implementation');
    expect(record.harness_config).toMatchObject({ version: '0.3.1', trust_tier: 'supervised' });
    expect(record.scores['functional_completeness']).toBe(1);
    expect(record.metrics.acceptance_criteria_passed).toBe(5);
    expect(record.output.tool_calls.map((t) => t.tool_name)).toEqual(['write_file', 'write_file']);
    expect(record.trace.agent_calls).toMatchObject([{ role: 'developer' }]);
    expect(record.outcome).toBe('pending');
  }, 120_000);
});
