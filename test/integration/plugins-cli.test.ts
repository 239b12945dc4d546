import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
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
      'test/fixtures/plugins/needs-plugin.yaml',
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
    const result = cli('validate', 'test/fixtures/plugins/needs-plugin.yaml');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('needs-plugin.yaml:6:12: agent.adapter: unknown adapter "echo"');
    expect(result.stderr).toContain(
      'needs-plugin.yaml:9:11: evaluators[0].name: unknown evaluator "word_limit"',
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

describe('plugins: in a benchmark or suite file', () => {
  const write = async (dir: string, name: string, text: string) => {
    await writeFile(join(dir, name), text, 'utf8');
    return join(dir, name);
  };

  it('loads the named modules relative to the file, so run needs no --plugin', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'he-plugins-key-')), 'results.tsv');
    const result = cli(
      'run',
      'examples/plugins/registered-benchmark.yaml',
      '--no-store',
      '--no-progress',
      '-o',
      out,
    );
    expect(result.stderr).toBe(`wrote ${out}\n`);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('word_limit: 8 words (limit 4)');
    expect(result.stdout).toMatch(/tool_calls\s+1/);
    expect((await readFile(out, 'utf8')).split('\n')).toHaveLength(4);
  });

  // Three CLI starts that each load a TypeScript plugin: seconds alone, far more on a loaded machine.
  it('validate and lint load them too; --plugin naming the same module changes nothing', () => {
    expect(cli('validate', 'examples/plugins/registered-benchmark.yaml').status).toBe(0);
    expect(cli('lint', 'examples/plugins/registered-benchmark.yaml').status).not.toBe(2);
    const both = cli(
      '--plugin',
      'examples/plugins/plugin.ts',
      'validate',
      'examples/plugins/registered-benchmark.yaml',
    );
    expect(both.stderr).toBe('');
    expect(both.status).toBe(0);
  }, 120_000);

  it('a seed-004 suite file may name plugins as well', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-plugins-suite-'));
    await write(
      dir,
      'task.yaml',
      'id: t1\ndomain: demo\ndescription: d\nacceptance_criteria:\n  - { id: ac-1, verification: automated, evaluator: { name: word_limit, options: { max_words: 3 } } }\n',
    );
    const plugin = join(root, 'examples/plugins/plugin.ts');
    const suite = await write(
      dir,
      'suite.yaml',
      `suite_id: s\nplugins: [${JSON.stringify(plugin)}]\ntasks: [{ ref: ./task.yaml }]\nmetrics: [tool_calls]\n`,
    );
    const result = cli('validate', suite);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const without = await write(
      dir,
      'plain.yaml',
      'suite_id: s\ntasks: [{ ref: ./task.yaml }]\nmetrics: [tool_calls]\n',
    );
    expect(cli('validate', without).stderr).toMatch(
      /plain\.yaml:\d+:\d+: metrics\[0\]: unknown metric "tool_calls"/,
    );
  });

  it('a module that cannot load is a located error without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-plugins-bad-'));
    const file = await write(
      dir,
      'bench.yaml',
      'version: "1.0"\nname: b\nplugins:\n  - ./missing-plugin.ts\ntests: [{ id: a, input: x }]\n',
    );
    const result = cli('validate', file);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `${file}:4:5: plugins[0]: cannot load module ${join(dir, 'missing-plugin.ts')}`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a plugins value of the wrong type is a located schema error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-plugins-type-'));
    const file = await write(
      dir,
      'bench.yaml',
      'version: "1.0"\nname: b\nplugins: ./p.ts\ntests: [{ id: a, input: x }]\n',
    );
    const result = cli('validate', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bench\.yaml:3:10: plugins: /);
  });
});
