import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-cli.ts';
import { run, writeScratchProject } from '../helpers/scratch-project.ts';

// A user's project outside the repository: it installs the packed package (dependencies from the
// npm cache, `npm ci --offline`), type-checks the shipped examples against it, and runs a plugin,
// the README's library example and the CLI from there, as a user would.
let packDir: string;
let project: string;
let packed: readonly string[];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/plugin.js'))) throw new Error('build first: npx tsdown (npm test does)');
  packDir = await mkdtemp(join(tmpdir(), 'he-pack-'));
  // dist/ is built already: `prepare` would build it a second time.
  const info = JSON.parse(
    run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], ROOT),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  const tarball = join(packDir, info[0]?.filename ?? '');
  packed = (info[0]?.files ?? []).map((f) => f.path);
  project = await mkdtemp(join(tmpdir(), 'he-user-project-'));
  writeScratchProject(project, tarball);
  // No install scripts: better-sqlite3 would fetch or compile its binary, so the runs below use --no-store.
  run(npm, ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
}, 240_000);

afterAll(async () => {
  for (const dir of [packDir, project])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the build, the bin, the schemas, examples, suites and the changelog; no tests, sources or maps', () => {
    for (const file of [
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'bin/harnesseval.js',
      'dist/cli/cli.cjs',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/plugin.js',
      'dist/plugin.d.ts',
      'dist/testing.d.ts',
      'schemas/suite.schema.json',
      'examples/plugins/plugin.ts',
      'suites/product-dev/suite.yaml',
    ])
      expect(packed).toContain(file);
    const stray = packed.filter(
      (p) => /^(test|src|bench|docs|\.ci)\//.test(p) || p.endsWith('.map') || p.includes('/fixtures/'),
    );
    expect(stray).toEqual([]);
  });

  it('lists types first in every export, and installs the bin into node_modules/.bin', async () => {
    const manifest = JSON.parse(
      await readFile(join(project, 'node_modules/harnesseval/package.json'), 'utf8'),
    ) as {
      exports: Record<string, unknown>;
    };
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(Object.keys(target as object)[0], entry).toBe('types');
    }
    expect(existsSync(join(project, 'node_modules/.bin/harnesseval'))).toBe(true);
    // README: ES modules only; require() fails with this code, import() works.
    const required = spawnSync(process.execPath, ['-e', "require('harnesseval')"], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(required.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const imported = spawnSync(
      process.execPath,
      ['-e', "import('harnesseval').then((m) => console.log(typeof m.runExperiment))"],
      { cwd: project, encoding: 'utf8' },
    );
    expect(imported.stdout.trim()).toBe('function');
    expect(run(npx, ['harnesseval', '--version'], project).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('a project that depends on it', () => {
  it('type-checks every shipped example against the installed package (imports from harnesseval only)', async () => {
    await cp(join(project, 'node_modules/harnesseval/examples'), join(project, 'examples'), {
      recursive: true,
    });
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
      },
      include: ['examples/**/*.ts'],
      // An example test imports the user's test framework (vitest), which this project does not install.
      exclude: ['examples/**/*.test.ts'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const sources = await readFile(join(project, 'examples/plugins/word-limit-evaluator.ts'), 'utf8');
    expect(sources).toContain("from 'harnesseval/plugin'");
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], project);
  }, 120_000);

  it('runs an evaluator, a metric, an adapter and a reporter named by plugins: through npx harnesseval', async () => {
    await cp(join(project, 'node_modules/harnesseval/examples/plugins'), join(project, 'my-plugins'), {
      recursive: true,
    });
    await writeFile(
      join(project, 'benchmark.yaml'),
      [
        'version: "1.0"',
        'name: user-plugins',
        'plugins: [./my-plugins/plugin.ts]',
        'agent: { adapter: echo, prefix: "echo: " }',
        'evaluators: [{ name: word_limit, options: { max_words: 4 } }]',
        'metrics: [success_rate, tool_calls]',
        'tests:',
        '  - { id: short, input: hello there }',
        '  - { id: long, input: this sentence has far too many words }',
        '',
      ].join('\n'),
    );
    const stdout = run(
      npx,
      ['harnesseval', 'run', 'benchmark.yaml', '--no-store', '--no-progress', '-o', 'out/results.tsv'],
      project,
    );
    expect(stdout).toMatch(/short\s+PASS/);
    expect(stdout).toMatch(/long\s+FAIL/);
    expect(stdout).toContain('word_limit: 8 words (limit 4)');
    expect(stdout).toMatch(/tool_calls\s+1/);
    const tsv = (await readFile(join(project, 'out/results.tsv'), 'utf8')).split('\n');
    expect(tsv[0]).toBe('task_id\tepoch\toutcome\tduration_seconds\terror');
    expect(tsv.slice(1, 3).map((row) => row.split('\t').slice(0, 3).join(' '))).toEqual([
      'short 0 pass',
      'long 0 fail',
    ]);
  }, 120_000);

  it('runs the README library example (runExperiment with a Harness object)', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const block = /```ts\n(\/\/ A whole suite[\s\S]*?)```/.exec(readme)?.[1];
    if (block === undefined) throw new Error('README has no "// A whole suite" example');
    await writeFile(join(project, 'suite-run.ts'), block);
    const stdout = run(process.execPath, ['--import', 'tsx', 'suite-run.ts'], project);
    expect(stdout).toMatch(/^short pass$/m);
    expect(stdout).toMatch(/^long pass$/m);
    expect(stdout).toMatch(/^empty fail$/m);
  }, 120_000);
});
