import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { compileExactCheck } from '../../../src/util/exact-check.ts';
import { makeRecord } from '../../helpers/experiments.ts';

/** A stored record as the store writes it: the parse's output, through JSON. */
function storedRecord(): Record<string, unknown> {
  const record = makeRecord({
    input: { question: 'q', n: 2 },
    expected: ['a', 1],
    error_kind: 'agent',
    error: 'boom',
    scores: { functional_completeness: 0.5, overall: 0.25 },
    output: {
      output: 'x',
      latency: 0.5,
      tool_calls: [{ tool_name: 'search', args: { q: 'x' }, result: { hits: 2 }, duration: 0.1 }],
      usage: { tokens_in: 10, tokens_out: 5, cost_usd: 0.01 },
      error_kind: 'agent',
    },
    trace: {
      agent_calls: [{ role: 'planner', model: 'm', tokens_in: 3, cost_usd: 0.002 }],
      prompts: [{ kind: 'unplanned', text: 'hi' }],
      human: [{ action: 'review', kind: 'planned', minutes: 2 }],
      circuit_breakers: [{ type: 'loop' }],
      malformed_events: [{ line: 3, error: 'bad json' }],
    },
    evaluations: [{ evaluator: 'exact_match', score: 0.5, passed: false, explanation: 'no' }],
    by_role: { planner: { calls: 1, tokens_in: 3, tokens_out: 0, cost_usd: 0.002 } },
    metadata: { seed: 7 },
  });
  return JSON.parse(JSON.stringify(record));
}

/** Every value in `root` with its path (objects and arrays too). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push(...paths(v, [...at, i]));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

const REPLACEMENTS: unknown[] = [null, 'x', '', -1, 0.5, 2, 1.5e300, true, [], {}, [1], { k: 1 }];

/** Copies of `record` with one value replaced, removed, or one key added or moved. */
function* mutations(record: Record<string, unknown>): Generator<unknown> {
  for (const path of paths(record)) {
    const edit = (change: (parent: Record<string | number, unknown>, key: string | number) => void) => {
      const copy = structuredClone(record);
      if (path.length === 0) return copy;
      let parent = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      change(parent, path.at(-1) as string | number);
      return copy;
    };
    for (const replacement of REPLACEMENTS)
      yield edit((parent, key) => {
        parent[key] = structuredClone(replacement);
      });
    yield edit((parent, key) => {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    });
    // Moved last: the parse would write it back in the schema's order.
    yield edit((parent, key) => {
      if (Array.isArray(parent)) return;
      const value = parent[key];
      delete parent[key];
      parent[key] = value;
    });
    yield edit((parent, key) => {
      const target = parent[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        (target as Record<string, unknown>)['unknown_key'] = 1;
    });
  }
}

describe('compileExactCheck', () => {
  const check = compileExactCheck(RunRecordSchema);

  it('compiles the run record schema and accepts a record as the store wrote it', () => {
    expect(check).toBeDefined();
    expect(check?.(storedRecord())).toBe(true);
  });

  it('accepts only what zod accepts and returns unchanged, key order included', () => {
    let accepted = 0;
    let refused = 0;
    for (const value of mutations(storedRecord())) {
      const parsed = RunRecordSchema.safeParse(value);
      if (check?.(value)) {
        accepted++;
        expect(parsed.success).toBe(true);
        expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(value));
      } else refused++;
    }
    // Both verdicts are exercised: a check that refused everything would pass the loop above.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(500);
  });

  it('refuses what zod would fill or strip, and refuses nothing zod accepts unchanged here', () => {
    const record = storedRecord();
    const { metrics: _metrics, ...withoutMetrics } = record;
    expect(check?.(withoutMetrics)).toBe(false);
    expect(RunRecordSchema.safeParse(withoutMetrics).success).toBe(true);
    expect(check?.({ ...record, stray: 1 })).toBe(false);
    expect(check?.({ ...record, outcome: 'maybe' })).toBe(false);
  });

  it('gives no check for a schema part it does not know', () => {
    expect(compileExactCheck(z.string().email())).toBeUndefined();
    expect(compileExactCheck(z.object({ a: z.string().transform((s) => s.length) }))).toBeUndefined();
    expect(compileExactCheck(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(compileExactCheck(z.union([z.object({ a: z.string() }), z.string()]))).toBeUndefined();
    expect(compileExactCheck(z.union([z.string(), z.object({ a: z.string() })]))).toBeDefined();
  });

  it('gives no check for a refinement it cannot see into', () => {
    const refined = z
      .object({ low: z.number(), high: z.number() })
      .refine((v) => v.low <= v.high, 'low must not be above high');
    // zod refuses this value; a check that ignored the refinement would take it as valid.
    expect(refined.safeParse({ low: 2, high: 1 }).success).toBe(false);
    expect(compileExactCheck(refined)).toBeUndefined();
    expect(
      compileExactCheck(z.object({ a: z.record(z.string(), z.number()).refine(() => false) })),
    ).toBeUndefined();
    expect(compileExactCheck(z.boolean().refine((b) => b))).toBeUndefined();
    // Known checks on strings, numbers and arrays still compile.
    expect(
      compileExactCheck(
        z.object({ s: z.string().min(1), n: z.number().min(0), a: z.array(z.string()).max(2) }),
      ),
    ).toBeDefined();
  });
});
