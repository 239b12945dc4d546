import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli.ts';

// What a person watching `harnesseval run` in a terminal or a CI log sees.

describe('run: console output', () => {
  it('a failed command criterion shows its first failing assertion, not the command line', async () => {
    const result = await cli([
      'run',
      'test/fixtures/console/task.yaml',
      '--harness',
      'test/fixtures/console/harness.yaml',
      '--no-store',
    ]);
    const row = result.stdout.split('\n').find((line) => /^fix-sum\s+[A-Z]+\s/.test(line));
    expect(row).toMatch(/FAIL\s+0\.00.*ac-01: adds small numbers: Expected values to be strict/);
    expect(row).not.toContain('command "node');
  });

  it('prints the header with the experiment id first, and names the trials still running', async () => {
    const result = await cli(['run', 'test/fixtures/console/progress.yaml', '--no-store', '-j', '2']);
    const id = /\((exp-[\w-]+)\)/.exec(result.stdout)?.[1];
    const [header, ...progress] = result.stderr.trim().split('\n');
    expect(header).toBe(`progress-demo × progress-demo@0.0.0  (${id}): 2 trials to run`);
    expect(progress[0]).toMatch(/^1\/2 trials {2}1 pass 0 fail 0 error .* {2}running: slow-one$/);
    expect(progress.at(-1)).toMatch(/^2\/2 trials {2}2 pass/);
    expect(progress.at(-1)).not.toContain('running');
    expect(result.status).toBe(0);
  });

  it('--no-progress prints neither', async () => {
    const result = await cli(['run', 'test/fixtures/console/progress.yaml', '--no-store', '--no-progress']);
    expect(result.stderr).toBe('');
  });
});
