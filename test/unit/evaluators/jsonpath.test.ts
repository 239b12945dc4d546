import { describe, expect, it } from 'vitest';
import { errored, judge } from './helpers.ts';

const doc = { user: { name: 'Ada', langs: ['en', 'fr'] }, items: [{ id: 1 }, { id: 2, ok: true }] };

describe('jsonpath', () => {
  it('passes when the path exists (structured output first)', async () => {
    const r = await judge(
      'jsonpath',
      { path: '$.user.name' },
      { output: { output: 'text', structured: doc } },
    );
    expect(r).toMatchObject({ score: 1, passed: true });
    expect(r.details['matches']).toBe(1);
  });

  it('fails when the path selects nothing', async () => {
    const r = await judge('jsonpath', { path: '$.user.email' }, { output: { output: doc } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('selects nothing');
  });

  it('compares the first value by deep equality', async () => {
    expect(
      (await judge('jsonpath', { path: '$.user.langs', value: ['en', 'fr'] }, { output: { output: doc } }))
        .passed,
    ).toBe(true);
    expect(
      (await judge('jsonpath', { path: '$.items[*].id', value: 1 }, { output: { output: doc } })).passed,
    ).toBe(true);
    const wrong = await judge('jsonpath', { path: '$.user.name', value: 'Bob' }, { output: { output: doc } });
    expect(wrong.passed).toBe(false);
    expect(wrong.explanation).toContain('expected "Bob"');
    expect(
      (await judge('jsonpath', { path: '$.missing', value: null }, { output: { output: doc } })).passed,
    ).toBe(false);
  });

  it('parses a text output as JSON; a non-JSON output fails with "output is not JSON"', async () => {
    expect(
      (await judge('jsonpath', { path: '$.a', value: 1 }, { output: { output: '{"a": 1}' } })).passed,
    ).toBe(true);
    const r = await judge('jsonpath', { path: '$.a' }, { output: { output: 'Hello, Ada!' } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('output is not JSON');
    const empty = await judge('jsonpath', { path: '$' }, { output: { output: '' } });
    expect(empty.explanation).toContain('output is not JSON');
  });

  it('honours target: structured and target: output', async () => {
    const both = { output: '{"from":"text"}', structured: { from: 'structured' } };
    expect(
      (await judge('jsonpath', { path: '$.from', value: 'text', target: 'output' }, { output: both })).passed,
    ).toBe(true);
    expect((await judge('jsonpath', { path: '$.from', value: 'structured' }, { output: both })).passed).toBe(
      true,
    );
    expect(
      (await judge('jsonpath', { path: '$', target: 'structured' }, { output: { output: '{}' } })).passed,
    ).toBe(false);
  });

  it('supports filters, with unicode keys', async () => {
    const r = await judge(
      'jsonpath',
      { path: '$.items[?@.ok == true].id', value: 2 },
      { output: { output: doc } },
    );
    expect(r.passed).toBe(true);
    expect(
      (
        await judge(
          'jsonpath',
          { path: "$['名前']", value: 'エイダ' },
          { output: { output: { 名前: 'エイダ' } } },
        )
      ).passed,
    ).toBe(true);
    expect(
      (await judge('jsonpath', { path: '$.items[?match(@.name, "[a-z]+")]' }, { output: { output: doc } }))
        .passed,
    ).toBe(false);
  });

  it('refuses invalid paths and unsafe or non-literal filter regexes at create()', async () => {
    await expect(judge('jsonpath', { path: 'user.name' })).rejects.toThrow(/invalid path/);
    await expect(judge('jsonpath', { path: '$.items[?match(@.name, "(a+)+")]' })).rejects.toThrow(/refused/);
    await expect(judge('jsonpath', { path: '$.items[?search(@.name, @.pattern)]' })).rejects.toThrow(
      /literal pattern/,
    );
  });

  it('errored output scores 0; negate flips', async () => {
    expect(await judge('jsonpath', { path: '$' }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    expect(
      await judge('jsonpath', { path: '$.secret' }, { output: { output: doc }, negate: true }),
    ).toMatchObject({ passed: true });
  });
});
