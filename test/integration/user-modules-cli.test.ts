import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli.ts';

// User modules (the `function` adapter's harness, the `javascript` evaluator's check) through the
// built CLI: the bundle is CommonJS, so a loader that works in vitest can still fail in dist/.

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-user-modules-'));
  await writeFile(
    join(dir, 'check.mjs'),
    'export function hasDigit(output) { return /\\d/.test(String(output.output)); }\n',
  );
  await writeFile(
    join(dir, 'check.ts'),
    'export default (output: { output: unknown }): number => (String(output.output).length > 3 ? 1 : 0);\n',
  );
  await writeFile(join(dir, 'agent.mjs'), 'export const echo = (input) => String(input) + " 42";\n');
  const benchmark = (module: string) =>
    [
      'version: "1.0"',
      'name: own-modules',
      'agent: { adapter: function, module: ./agent.mjs#echo }',
      `evaluators: [{ name: javascript, options: { module: ${module} } }]`,
      'tests:',
      '  - { id: one, input: one }',
      '',
    ].join('\n');
  await writeFile(join(dir, 'mjs.yaml'), benchmark('./check.mjs#hasDigit'));
  await writeFile(join(dir, 'ts.yaml'), benchmark('./check.ts'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the javascript evaluator in the built CLI', () => {
  it('runs the docs/extending.md example with the output the docs show', async () => {
    const result = await cli(['run', 'examples/plugins/benchmark.yaml', '--no-store', '--no-progress']);
    expect(result.stderr).not.toContain('cannot load');
    expect(result.stdout).toMatch(/^short\s+PASS\s+1\.00/m);
    expect(result.stdout).toMatch(/^empty\s+ERROR\s+0\.00.*nothing to shout/m);
    expect(result.status).toBe(0);
  });

  it('loads a plain .mjs check module from the user’s own folder', async () => {
    const result = await cli(['run', join(dir, 'mjs.yaml'), '--no-store', '--no-progress']);
    expect(result.stderr).not.toContain('cannot load');
    expect(result.stdout).toMatch(/^one\s+PASS\s+1\.00/m);
    expect(result.status).toBe(0);
  });

  it('loads a TypeScript default export from the user’s own folder', async () => {
    const result = await cli(['run', join(dir, 'ts.yaml'), '--no-store', '--no-progress']);
    expect(result.stderr).not.toContain('cannot load');
    expect(result.stdout).toMatch(/^one\s+PASS\s+1\.00/m);
    expect(result.status).toBe(0);
  });
});
