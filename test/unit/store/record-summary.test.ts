import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  finishedAt,
  SummarySourceSchema,
  summaryOf,
  summaryOfRow,
  summarySource,
} from '../../../src/store/record-summary.ts';
import { TrialSummarySchema, trialSummary } from '../../../src/store/trial-record.ts';
import { makeRecord } from '../../helpers/experiments.ts';

/**
 * `summaryOf` checks a stored summary with plain code (10,000 zod parses cost more than the page
 * they are for) and `SummarySourceSchema` writes the message when it refuses one: the two must
 * give the same verdict on every value, and the same summary on every value both accept.
 */

// Each field: valid values, and values of the wrong type or range (including a missing field).
const missing = fc.constant(undefined);
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 3 }),
  fc.constant([]),
  fc.constant({}),
);
const amount = fc.oneof(
  fc.double({ min: 0, max: 1e6, noNaN: true }),
  fc.constantFrom(-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY),
);
const field = {
  run_id: fc.oneof(fc.constant('r#0'), fc.constant('other#1'), junk),
  task_id: fc.oneof(fc.string({ maxLength: 5 }), junk),
  epoch: fc.oneof(fc.nat(10), fc.constantFrom(-1, 1.5, 2 ** 60), missing, junk),
  outcome: fc.oneof(fc.constantFrom('pass', 'fail', 'error', 'pending', 'passed'), junk),
  scores: fc.oneof(
    fc.dictionary(
      fc.constantFrom('overall', 'functional'),
      fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), amount),
    ),
    missing,
    junk,
  ),
  timestamp: fc.oneof(fc.constantFrom('2026-01-01T00:00:00.000Z', 'not a time'), missing, junk),
  duration_seconds: fc.oneof(amount, missing, junk),
  cost_usd: fc.oneof(amount, fc.constant(null), missing, junk),
  error_kind: fc.oneof(fc.constantFrom('timeout', 'environment', 'bogus'), missing, junk),
  output: fc.oneof(
    fc.record(
      { error_kind: fc.oneof(fc.constantFrom('crash', 'infra', 'bogus'), missing) },
      { requiredKeys: [] },
    ),
    missing,
    junk,
  ),
  criteria: fc.oneof(
    fc.array(
      fc.oneof(
        fc.record({
          status: fc.constantFrom('pending', 'passed', 'failed', 'error', 'skipped', 'bogus'),
          verification: fc.constantFrom('automated', 'rubric', 'human', 'bogus'),
        }),
        junk,
      ),
      { maxLength: 3 },
    ),
    missing,
    junk,
  ),
};
/** A stored summary: every field drawn, absent ones left out (as JSON would). */
const stored = fc.record(field).map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

describe('summaryOf and SummarySourceSchema', () => {
  it('give the same verdict and the same summary on every value (seeded)', () => {
    fc.assert(
      fc.property(stored, (value) => {
        const summary = summaryOf(value, 'r#0');
        const parsed = SummarySourceSchema.safeParse(value);
        const accepted = parsed.success && parsed.data.run_id === 'r#0';
        expect(summary !== undefined, JSON.stringify(value)).toBe(accepted);
        if (summary === undefined || !parsed.success) return;
        const p = parsed.data;
        const kind = p.error_kind ?? p.output.error_kind;
        expect(summary).toEqual({
          run_id: p.run_id,
          task_id: p.task_id,
          epoch: p.epoch,
          outcome: p.outcome,
          scores: p.scores,
          timestamp: p.timestamp,
          finished_at: finishedAt(p),
          duration_seconds: p.duration_seconds,
          cost_usd: p.cost_usd,
          ...(kind === undefined ? {} : { error_kind: kind }),
          pending_criteria: p.criteria.filter((c) => c.status === 'pending' && c.verification !== 'automated')
            .length,
        });
      }),
      { seed: 20261201, numRuns: 3000 },
    );
  });

  it('reads back what summarySource stored of a record', () => {
    const record = makeRecord({ duration_seconds: 90, cost_usd: 0.5, scores: { overall: 0.25 } });
    expect(
      summaryOfRow({ run_id: record.run_id, summary: summarySource(record, (text) => text) }),
    ).toMatchObject({
      run_id: record.run_id,
      timestamp: record.timestamp,
      finished_at: '2026-01-01T00:01:30.000Z',
      cost_usd: 0.5,
      scores: { overall: 0.25 },
    });
    // A summary stored before the timestamp was kept is not one: the store reads the document.
    const old = JSON.parse(summarySource(record, (text) => text)) as Record<string, unknown>;
    delete old['timestamp'];
    expect(summaryOfRow({ run_id: record.run_id, summary: JSON.stringify(old) })).toBeUndefined();
    expect(summaryOfRow({ run_id: record.run_id, summary: null })).toBeUndefined();
    expect(summaryOfRow({ run_id: record.run_id, summary: '{not json' })).toBeUndefined();
  });

  it('finds no finish time for a start that is not a time', () => {
    expect(finishedAt({ timestamp: '2026-01-01T00:00:00Z', duration_seconds: 1.5 })).toBe(
      '2026-01-01T00:00:01.500Z',
    );
    expect(finishedAt({ timestamp: 'yesterday', duration_seconds: 1 })).toBeNull();
    expect(finishedAt({ timestamp: '2026-01-01T00:00:00Z', duration_seconds: 1e300 })).toBeNull();
  });

  it('reads the leading fields of the stored trial summary, with the same field schemas', () => {
    const keys = Object.keys(SummarySourceSchema.shape);
    const trialKeys = Object.keys(TrialSummarySchema.shape);
    expect(trialKeys.slice(0, keys.length)).toEqual(keys);
    // What a record's summary stores starts with them, and the viewer's schema accepts it as stored.
    const record = makeRecord({ outcome: 'fail', error_kind: 'timeout', cost_usd: 0.25 });
    const stored = trialSummary(record);
    expect(Object.keys(stored).slice(0, keys.length)).toEqual(keys);
    const parsed = SummarySourceSchema.parse(JSON.parse(JSON.stringify(stored)));
    expect(parsed.criteria).toEqual(
      record.criteria.map((c) => ({ status: c.status, verification: c.verification })),
    );
    // A field schema is the trial summary's own: one refused there is refused here.
    for (const bad of [{ epoch: -1 }, { output: { error_kind: 'bogus' } }, { criteria: [{ status: 'x' }] }]) {
      expect(TrialSummarySchema.safeParse({ ...stored, ...bad }).success).toBe(false);
      expect(SummarySourceSchema.safeParse({ ...stored, ...bad }).success).toBe(false);
    }
  });
});
