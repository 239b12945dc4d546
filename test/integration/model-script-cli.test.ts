import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/run-cli.ts';

describe('harnesseval validate on a model script', () => {
  it('accepts a good script and reports a bad one at file:line:col with the field', async () => {
    const good = await cli(['validate', join(ROOT, 'test/fixtures/gateway/script.yaml')]);
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/model-script/);
    const bad = await cli(['validate', 'test/fixtures/gateway/bad-script.yaml']);
    expect(bad.status).toBe(1);
    const out = bad.stdout + bad.stderr;
    expect(out).toMatch(/bad-script\.yaml:5:9: turns\[1\]\.tool_calls\[0\]\.name: required field is missing/);
    expect(out).toMatch(/bad-script\.yaml:6:28: turns\[2\]\.usage\.input_tokens: -3 is too small/);
    expect(out).toMatch(/bad-script\.yaml:8:30: turns\[3\]\.when\.tool_result_has: unknown field/);
    expect(out).not.toMatch(/\n\s+at /);
  });
});
