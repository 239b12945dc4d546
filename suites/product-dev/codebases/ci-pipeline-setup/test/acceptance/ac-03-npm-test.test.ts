import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { root } from './support.ts';

const cwd = fileURLToPath(root);
// Without this, the nested `node --test` would report to our runner instead of printing its results.
const { NODE_TEST_CONTEXT: _, ...env } = process.env;
const npmTest = () =>
  spawnSync('npm', ['test'], { cwd, env, encoding: 'utf8', shell: false, timeout: 60_000 });

test('package.json has a test script that runs the unit tests with node --test', () => {
  const pkg: unknown = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const script =
    typeof pkg === 'object' && pkg !== null && 'scripts' in pkg ? JSON.stringify(pkg.scripts) : '';
  assert.match(script, /"test":"[^"]*--test[^"]*"/);

  const result = npmTest();
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /slugify strips accents/, 'the unit tests ran');
  assert.doesNotMatch(
    result.stdout,
    /runs on push and pull_request/,
    'acceptance tests are not part of npm test',
  );
});

test('npm test fails when a unit test fails', () => {
  const failing = new URL('test/unit/zz-failing.test.ts', root);
  writeFileSync(
    failing,
    "import { test } from 'node:test';\ntest('fails', () => { throw new Error('boom'); });\n",
  );
  try {
    assert.notEqual(npmTest().status, 0);
  } finally {
    rmSync(failing);
  }
});
