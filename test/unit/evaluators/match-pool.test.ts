import { afterEach, describe, expect, it } from 'vitest';
import { matchPool, sizeMatchPool } from '../../../src/evaluators/match-pool.ts';

const SLOW = { kind: 'regex', source: 'a*a*a*a*a*a*a*b', flags: '', text: `${'a'.repeat(30_000)}!` } as const;

afterEach(() => sizeMatchPool(4));

describe('matchPool', () => {
  it('runs a regex, a JSONPath query with a filter and a schema with patterns on a worker', async () => {
    const regex = await matchPool.run(
      { kind: 'regex', source: 'l+(?<o>o)', flags: 'i', text: 'heLLo' },
      2000,
    );
    expect(regex.outcome).toEqual({
      kind: 'done',
      value: { matched: true, value: 'LLo', index: 2, groups: { o: 'o', '1': 'o' } },
    });
    const nodes = await matchPool.run(
      {
        kind: 'jsonpath',
        path: "$.list[?search(@.name, '^b')].name",
        data: { list: [{ name: 'ab' }, { name: 'bc' }] },
      },
      2000,
    );
    expect(nodes.outcome).toEqual({ kind: 'done', value: ['bc'] });
    const schema = { properties: { id: { type: 'string', pattern: '^[a-z]+$' } } };
    const job = { kind: 'json_schema', key: 'k1', schema, draft2020: false } as const;
    expect((await matchPool.run({ ...job, data: { id: 'abc' } }, 2000)).outcome).toEqual({
      kind: 'done',
      value: { valid: true, errors: [] },
    });
    expect((await matchPool.run({ ...job, data: { id: 'A1' } }, 2000)).outcome).toMatchObject({
      kind: 'done',
      value: { valid: false, errors: [{ instancePath: '/id' }] },
    });
  });

  it('stops a match at its limit, and the pool goes on with a fresh worker', async () => {
    const slow = await matchPool.run(SLOW, 200);
    expect(slow.outcome).toEqual({ kind: 'timeout', limitMs: 200 });
    const next = await matchPool.run({ kind: 'regex', source: 'b', flags: '', text: 'abc' }, 2000);
    expect(next.outcome).toMatchObject({ kind: 'done', value: { matched: true, index: 1 } });
  });

  it('reports a bad pattern or data that cannot be cloned as an error, not a throw', async () => {
    const bad = await matchPool.run({ kind: 'regex', source: '(', flags: '', text: 'x' }, 2000);
    expect(bad.outcome).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/Invalid regular expression/),
    });
    const uncloneable = await matchPool.run({ kind: 'jsonpath', path: '$.a', data: { a: () => 1 } }, 2000);
    expect(uncloneable.outcome).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/cannot hand the data/),
    });
  });

  it('stops a match when the signal fires', async () => {
    const controller = new AbortController();
    const running = matchPool.run(SLOW, 10_000, controller.signal);
    controller.abort();
    expect((await running).outcome).toEqual({ kind: 'error', message: 'stopped: the run was interrupted' });
  });

  it('runs no more matches at once than its size: with one worker, jobs queue behind each other', async () => {
    sizeMatchPool(1);
    const order: string[] = [];
    const first = matchPool.run(SLOW, 300).then((r) => order.push(`first:${r.outcome.kind}`));
    const second = matchPool
      .run({ kind: 'regex', source: 'b', flags: '', text: 'b' }, 2000)
      .then((r) => order.push(`second:${r.outcome.kind}`));
    await Promise.all([first, second]);
    expect(order).toEqual(['first:timeout', 'second:done']);
  });
});
