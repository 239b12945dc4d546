import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CSV_HEADER,
  createCsvReporter,
  csvField,
  neutralizeFormula,
  renderCsv,
} from '../../../src/reporters/csv.ts';
import { parseCsv } from './csv-reader.ts';
import { evaluation, experiment, mixedExperiment, NASTY, record } from './experiment-factory.ts';

/** Column index by header name, so the tests read the column they mean. */
const col = (name: (typeof CSV_HEADER)[number]) => CSV_HEADER.indexOf(name);

describe('csv reporter', () => {
  it('writes the header and one row per trial', () => {
    const rows = parseCsv(renderCsv(mixedExperiment()));
    expect(rows[0]).toEqual([...CSV_HEADER]);
    expect(rows[0]?.join(',')).toBe(
      'test_id,epoch,status,error_kind,agent_latency_seconds,trial_duration_seconds,cost_usd,cost_status,score,evaluator_scores,error',
    );
    expect(rows).toHaveLength(1 + mixedExperiment().records.length);
    expect(rows[1]).toEqual([
      'greet-alice',
      '0',
      'pass',
      '',
      '1.2500',
      '1.5000',
      '0.0012',
      'complete',
      '1.0000',
      'exact_match:1.00',
      '',
    ]);
    const timeout = rows.find((r) => r[0] === 'tool-<script>');
    // Errors say their kind; no measured agent latency is an empty cell, not the trial's duration.
    expect([
      timeout?.[col('error_kind')],
      timeout?.[col('agent_latency_seconds')],
      timeout?.[col('cost_status')],
    ]).toEqual(['timeout', '', 'unknown']);
    expect(rows.every((r) => r.length === CSV_HEADER.length)).toBe(true);
  });

  it('round-trips commas, quotes, newlines, markup, emoji and 10 KB values', () => {
    const error = [
      NASTY.comma,
      NASTY.quotes,
      NASTY.newline,
      NASTY.script,
      NASTY.cdata,
      NASTY.emoji,
      NASTY.big,
    ].join(' | ');
    const e = experiment({
      records: [
        record({ task_id: NASTY.comma, outcome: 'error', error }),
        record({
          task_id: NASTY.quotes,
          outcome: 'fail',
          evaluations: [evaluation({ passed: false, score: 0 })],
        }),
      ],
    });
    const rows = parseCsv(renderCsv(e));
    expect(rows[1]?.[0]).toBe(NASTY.comma);
    expect(rows[1]?.[col('error')]).toBe(error);
    expect(rows[2]?.[0]).toBe(NASTY.quotes);
    expect(rows[2]?.[col('evaluator_scores')]).toBe('exact_match:0.00');
  });

  it('guards against formula injection with a leading apostrophe', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(neutralizeFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralizeFormula('safe = text')).toBe('safe = text');
    const rows = parseCsv(renderCsv(mixedExperiment()));
    const formula = rows.find((r) => r[0] === "'=formula");
    expect(formula?.[col('error')]).toBe(`'${NASTY.formula}`);
    // Numbers the reporter formats itself are never touched.
    expect(formula?.[col('trial_duration_seconds')]).toBe('1.5000');
  });

  it('quotes only the fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "x"')).toBe('"say ""x"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('a\rb')).toBe('"a\rb"');
  });

  it('leaves the score empty without evaluations and lists negated evaluators', () => {
    const e = experiment({
      records: [
        record({ task_id: 'none', outcome: 'pending' }),
        record({
          task_id: 'neg',
          outcome: 'pass',
          evaluations: [evaluation({ evaluator: 'contains', negated: true })],
        }),
      ],
    });
    const rows = parseCsv(renderCsv(e));
    expect(rows[1]?.[col('score')]).toBe('');
    expect(rows[2]?.[col('evaluator_scores')]).toBe('not contains:1.00');
  });

  it('gives only the header for an experiment without trials', () => {
    expect(parseCsv(renderCsv(experiment()))).toEqual([[...CSV_HEADER]]);
  });

  it('writes to a destination, creating parent folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-csv-'));
    const destination = join(dir, 'deep', 'er', 'x.csv');
    const text = await createCsvReporter().report(mixedExperiment(), { destination });
    expect(await readFile(destination, 'utf8')).toBe(text);
  });
});
