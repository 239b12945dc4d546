import { describe, expect, it } from 'vitest';
import { errored, judge } from './helpers.ts';

const inline = { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } };

describe('json_schema', () => {
  it('passes when the structured output validates (inline schema)', async () => {
    const r = await judge(
      'json_schema',
      { schema: inline },
      { output: { output: 'x', structured: { ok: true } } },
    );
    expect(r).toMatchObject({ score: 1, passed: true });
  });

  it('fails with the validation errors', async () => {
    const r = await judge('json_schema', { schema: inline }, { output: { output: { ok: 'yes' } } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('/ok must be boolean');
  });

  it('loads a schema file relative to baseDir, JSON or YAML (draft 2020-12)', async () => {
    expect(
      (
        await judge(
          'json_schema',
          { schema: 'greeting.schema.json' },
          { output: { output: '{"greeting":"hi","count":2}' } },
        )
      ).passed,
    ).toBe(true);
    const bad = await judge(
      'json_schema',
      { schema: 'greeting.schema.json' },
      { output: { output: '{"greeting":"","count":-1,"x":1}' } },
    );
    expect(bad.passed).toBe(false);
    expect(bad.details['errors']).toHaveLength(3);
    expect(
      (await judge('json_schema', { schema: 'list.schema.yaml' }, { output: { output: ['a', 1, 2] } }))
        .passed,
    ).toBe(true);
    expect(
      (await judge('json_schema', { schema: 'list.schema.yaml' }, { output: { output: ['a', 'b'] } })).passed,
    ).toBe(false);
  });

  it('refuses a missing file or an invalid schema at create()', async () => {
    await expect(judge('json_schema', { schema: 'nope.json' })).rejects.toThrow(/cannot read schema file/);
    await expect(judge('json_schema', { schema: { type: 'no-such-type' } })).rejects.toThrow(
      /invalid schema/,
    );
  });

  it('fails a non-JSON output, handles unicode', async () => {
    const r = await judge('json_schema', { schema: inline }, { output: { output: 'plain words' } });
    expect(r.explanation).toContain('output is not JSON');
    const s = { type: 'string', pattern: '^h' };
    expect(
      (
        await judge(
          'json_schema',
          { schema: { type: 'object', properties: { g: s } } },
          { output: { output: { g: 'héllo 👋' } } },
        )
      ).passed,
    ).toBe(true);
  });

  it('errored output scores 0; negate flips', async () => {
    expect(await judge('json_schema', { schema: {} }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    expect(
      await judge('json_schema', { schema: inline }, { output: { output: '{}' }, negate: true }),
    ).toMatchObject({ score: 1, passed: true });
  });
});
