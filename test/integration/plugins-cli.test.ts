import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/harnesseval.js'), ...args], { cwd: root, encoding: 'utf8' });

describe('--plugin', () => {
  it('registers a module’s evaluators, metrics, adapters and reporters so files can name them', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'he-plugin-')), 'results.tsv');
    const result = cli(
      '--plugin',
      'examples/plugins/plugin.ts',
      'run',
      'examples/plugins/registered-benchmark.yaml',
      '--no-store',
      '--no-progress',
      '-o',
      out,
    );
    expect(result.stderr).not.toMatch(/unknown/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('word_limit: 8 words (limit 4)');
    expect(result.stdout).toMatch(/tool_calls\s+1/);
    expect((await readFile(out, 'utf8')).split('\n')[0]).toBe(
      'task_id\tepoch\toutcome\tduration_seconds\terror',
    );
  });

  it('without the plugin the same file fails validation with located unknown names', () => {
    const result = cli('validate', 'examples/plugins/registered-benchmark.yaml');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'registered-benchmark.yaml:9:11: evaluators[0].name: unknown evaluator "word_limit"',
    );
  });

  it('checks a registered plugin’s options when the file loads', () => {
    const result = cli(
      '--plugin',
      'examples/plugins/plugin.ts',
      'validate',
      'test/fixtures/plugins/bad-options.yaml',
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bad-options\.yaml:\d+:\d+: evaluators\[0\]\.options\.max_words/);
  });

  it('reports a module that is not a plugin, without a stack trace', () => {
    const result = cli(
      '--plugin',
      'examples/plugins/polite-check.ts',
      'validate',
      'examples/plugins/benchmark.yaml',
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('must export a plugin object');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
