import { describe, expect, it } from 'vitest';
import { isSubsetOf } from '../../../src/evaluators/tool-args.ts';
import { lcsLength } from '../../../src/evaluators/trajectory.ts';
import { errored, judge } from './helpers.ts';

const calls = (...names: string[]) => names.map((tool_name) => ({ tool_name }));
const withCalls = (...names: string[]) => ({ output: { output: 'done', tool_calls: calls(...names) } });

describe('tool_called', () => {
  it('passes when the tool shorthand was called', async () => {
    expect(await judge('tool_called', { tool: 'hello_world' }, withCalls('hello_world'))).toMatchObject({
      score: 1,
      passed: true,
    });
  });

  it('fails when a required tool is missing or a forbidden one is called; score is the share of checks met', async () => {
    const r = await judge(
      'tool_called',
      { required: ['search', 'fetch'], forbidden: ['delete'] },
      withCalls('search', 'delete'),
    );
    expect(r.passed).toBe(false);
    expect(r.score).toBeCloseTo(1 / 3);
    expect(r.explanation).toContain('required tool "fetch" was not called');
    expect(r.explanation).toContain('forbidden tool "delete" was called');
  });

  it('checks min/max calls of the tool, or of all tools', async () => {
    expect((await judge('tool_called', { tool: 'a', max_calls: 1 }, withCalls('a', 'a', 'b'))).passed).toBe(
      false,
    );
    expect((await judge('tool_called', { tool: 'a', min_calls: 2 }, withCalls('a', 'a', 'b'))).passed).toBe(
      true,
    );
    expect((await judge('tool_called', { max_calls: 2 }, withCalls('a', 'a', 'b'))).passed).toBe(false);
    expect((await judge('tool_called', { max_calls: 0 }, withCalls())).passed).toBe(true);
  });

  it('with no options some tool must have been called', async () => {
    expect((await judge('tool_called', {}, withCalls())).passed).toBe(false);
    expect((await judge('tool_called', {}, withCalls('x'))).passed).toBe(true);
  });

  it('counts errored calls as calls and reports them; unicode names', async () => {
    const r = await judge(
      'tool_called',
      { tool: 'sök' },
      { output: { output: '', tool_calls: [{ tool_name: 'sök', status: 'error' }] } },
    );
    expect(r.passed).toBe(true);
    expect(r.details['errored_calls']).toEqual(['sök']);
  });

  it('errored output scores 0; negate turns "must not call" into a check', async () => {
    expect(
      await judge('tool_called', { tool: 'a' }, { output: { ...errored, tool_calls: calls('a') } }),
    ).toMatchObject({ score: 0, passed: false });
    expect(await judge('tool_called', { tool: 'rm' }, { ...withCalls('ls'), negate: true })).toMatchObject({
      passed: true,
      score: 1,
    });
  });
});

describe('tool_args', () => {
  const call = (args: Record<string, unknown>) => ({ tool_name: 'hello_world', args });
  const out = (...args: Record<string, unknown>[]) => ({
    output: { output: '', tool_calls: [...args.map(call), { tool_name: 'other', args: { name: 'Ada' } }] },
  });

  it('subset (default): the expected arguments appear in some call, extra keys allowed', async () => {
    expect(
      (
        await judge(
          'tool_args',
          { tool: 'hello_world', arguments: { name: 'Ada' } },
          out({ name: 'Bob' }, { name: 'Ada', lang: 'en' }),
        )
      ).passed,
    ).toBe(true);
    expect(
      (await judge('tool_args', { tool: 'hello_world', arguments: { name: 'Eve' } }, out({ name: 'Ada' })))
        .passed,
    ).toBe(false);
  });

  it('exact: deep equality of the whole argument object', async () => {
    const opts = { tool: 'hello_world', arguments: { name: 'Ada', opts: { loud: true } }, mode: 'exact' };
    expect((await judge('tool_args', opts, out({ opts: { loud: true }, name: 'Ada' }))).passed).toBe(true);
    expect(
      (await judge('tool_args', opts, out({ name: 'Ada', opts: { loud: true }, extra: 1 }))).passed,
    ).toBe(false);
  });

  it('superset: the call used only expected arguments', async () => {
    const opts = { tool: 'hello_world', arguments: { name: 'Ada', lang: 'en' }, mode: 'superset' };
    expect((await judge('tool_args', opts, out({ name: 'Ada' }))).passed).toBe(true);
    expect((await judge('tool_args', opts, out({ name: 'Ada', extra: 1 }))).passed).toBe(false);
    expect((await judge('tool_args', opts, out({}))).passed).toBe(true);
  });

  it('nested objects are compared as subsets, arrays exactly', () => {
    expect(isSubsetOf({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(true);
    expect(isSubsetOf({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(isSubsetOf({ a: null }, { a: undefined })).toBe(false);
  });

  it('fails when the tool was never called; errored output scores 0; negate flips', async () => {
    const r = await judge('tool_args', { tool: 'hello_world', arguments: {} }, { output: { output: '' } });
    expect(r).toMatchObject({ passed: false, score: 0 });
    expect(r.explanation).toContain('was not called');
    expect(
      await judge(
        'tool_args',
        { tool: 'hello_world', arguments: {} },
        { output: { ...errored, tool_calls: [call({})] } },
      ),
    ).toMatchObject({ passed: false });
    expect(
      await judge(
        'tool_args',
        { tool: 'hello_world', arguments: { name: 'x' } },
        { ...out({ name: 'y' }), negate: true },
      ),
    ).toMatchObject({ passed: true });
  });

  it('requires tool and arguments', async () => {
    await expect(judge('tool_args', { tool: 'x' })).rejects.toThrow(/options\.arguments/);
  });
});

describe('trajectory', () => {
  it('LCS length', () => {
    expect(lcsLength(['a', 'b', 'c'], ['a', 'c'])).toBe(2);
    expect(lcsLength([], ['a'])).toBe(0);
  });

  it('strict: equal sequences pass; otherwise score = LCS / longer length', async () => {
    expect(
      await judge('trajectory', { expected: ['search', 'fetch'] }, withCalls('search', 'fetch')),
    ).toMatchObject({ score: 1, passed: true });
    const r = await judge(
      'trajectory',
      { expected: ['search', 'fetch'] },
      withCalls('search', 'search', 'fetch', 'answer'),
    );
    expect(r).toMatchObject({ score: 0.5, passed: false });
    expect(r.explanation).toContain('search → fetch');
    expect((await judge('trajectory', { expected: ['a', 'b'] }, withCalls('b', 'a'))).passed).toBe(false);
  });

  it('unordered: the same multiset', async () => {
    expect(
      (await judge('trajectory', { expected: ['a', 'b', 'b'], mode: 'unordered' }, withCalls('b', 'a', 'b')))
        .passed,
    ).toBe(true);
    const r = await judge(
      'trajectory',
      { expected: ['a', 'b', 'b'], mode: 'unordered' },
      withCalls('b', 'a'),
    );
    expect(r.passed).toBe(false);
    expect(r.score).toBeCloseTo(2 / 3);
  });

  it('subset: expected is an in-order subsequence of the actual calls', async () => {
    expect(
      (await judge('trajectory', { expected: ['a', 'c'], mode: 'subset' }, withCalls('a', 'b', 'c'))).passed,
    ).toBe(true);
    const r = await judge('trajectory', { expected: ['c', 'a'], mode: 'subset' }, withCalls('a', 'b', 'c'));
    expect(r).toMatchObject({ passed: false, score: 0.5 });
  });

  it('superset: the actual calls are an in-order subsequence of the expected ones', async () => {
    expect(
      (await judge('trajectory', { expected: ['a', 'b', 'c'], mode: 'superset' }, withCalls('a', 'c')))
        .passed,
    ).toBe(true);
    expect(
      (await judge('trajectory', { expected: ['a', 'b', 'c'], mode: 'superset' }, withCalls())).passed,
    ).toBe(true);
    expect(
      (await judge('trajectory', { expected: ['a', 'b'], mode: 'superset' }, withCalls('a', 'x'))).passed,
    ).toBe(false);
  });

  it('no calls at all fails strict; errored output scores 0; negate flips', async () => {
    expect(await judge('trajectory', { expected: ['a'] }, withCalls())).toMatchObject({
      passed: false,
      score: 0,
    });
    expect(
      await judge('trajectory', { expected: ['a'] }, { output: { ...errored, tool_calls: calls('a') } }),
    ).toMatchObject({ passed: false, score: 0 });
    expect(await judge('trajectory', { expected: ['a'] }, { ...withCalls('b'), negate: true })).toMatchObject(
      { passed: true, score: 1 },
    );
  });

  it('an empty expected list is a configuration error', async () => {
    await expect(judge('trajectory', { expected: [] })).rejects.toThrow(/invalid_config|expected/);
  });
});

describe('latency and cost', () => {
  it('latency passes at or under max_seconds, fails above', async () => {
    expect(await judge('latency', { max_seconds: 2 }, { output: { output: '', latency: 2 } })).toMatchObject({
      passed: true,
      score: 1,
    });
    const slow = await judge('latency', { max_seconds: 2 }, { output: { output: '', latency: 2.5 } });
    expect(slow).toMatchObject({ passed: false, score: 0 });
    expect(slow.explanation).toContain('2.500 s > 2 s');
    expect(
      await judge('latency', { max_seconds: 2 }, { output: { ...errored, latency: 0.1 } }),
    ).toMatchObject({ passed: false, score: 0 });
    expect(
      await judge('latency', { max_seconds: 1 }, { output: { output: '', latency: 5 }, negate: true }),
    ).toMatchObject({ passed: true });
    await expect(judge('latency', { max_seconds: 0 })).rejects.toThrow(/max_seconds/);
  });

  it('cost passes within budget, fails above, and fails when unknown', async () => {
    const usage = (cost_usd: number | null) => ({ output: { output: '', usage: { cost_usd } } });
    expect(await judge('cost', { max_usd: 0.01 }, usage(0.01))).toMatchObject({ passed: true, score: 1 });
    expect(await judge('cost', { max_usd: 0.01 }, usage(0.02))).toMatchObject({ passed: false, score: 0 });
    expect(await judge('cost', { max_usd: 0 }, usage(0))).toMatchObject({ passed: true });
    const unknown = await judge('cost', { max_usd: 1 }, usage(null));
    expect(unknown).toMatchObject({ passed: false, score: 0 });
    expect(unknown.explanation).toContain('cost unknown');
    expect(
      await judge('cost', { max_usd: 1 }, { output: { ...errored, usage: { cost_usd: 0 } } }),
    ).toMatchObject({ passed: false });
    expect(await judge('cost', { max_usd: 0.01 }, { ...usage(1), negate: true })).toMatchObject({
      passed: true,
    });
  });
});
