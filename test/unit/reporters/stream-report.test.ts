import { describe, expect, it } from 'vitest';
import type { Annotation } from '../../../src/core/annotation.ts';
import type { Experiment } from '../../../src/core/experiment.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { builtinReporters } from '../../../src/reporters/registry.ts';
import type { RecordPages, ReporterV1, ReportOptions } from '../../../src/reporters/types.ts';
import { evaluation, experiment, mixedExperiment, record } from './experiment-factory.ts';

/** Pages over an array, as the CLI's store pages give them (a small page size to cross pages). */
function arrayPages(records: readonly RunRecord[], pageSize = 7): RecordPages & { reads: number } {
  const pages = {
    reads: 0,
    async count(outcomes?: readonly string[]) {
      return records.filter((r) => outcomes === undefined || outcomes.includes(r.outcome)).length;
    },
    async *records(query: { outcomes?: readonly string[]; limit?: number } = {}) {
      const chosen = records.filter(
        (r) => query.outcomes === undefined || query.outcomes.includes(r.outcome),
      );
      const end = Math.min(chosen.length, query.limit ?? chosen.length);
      for (let at = 0; at < end; at += pageSize) {
        pages.reads += 1;
        yield* chosen.slice(at, Math.min(end, at + pageSize));
      }
    },
    async *glances() {
      for (const r of records)
        yield {
          run_id: r.run_id,
          task_id: r.task_id,
          epoch: r.epoch,
          outcome: r.outcome,
          scores: r.scores,
          duration_seconds: r.duration_seconds,
          cost_usd: r.cost_usd,
          ...((r.error_kind ?? r.output.error_kind)
            ? { error_kind: r.error_kind ?? r.output.error_kind }
            : {}),
        };
    },
  };
  return pages;
}

/** The HTML page's CSP nonce is random per page. */
const sameNonce = (page: string) =>
  page.replace(/nonce-[A-Za-z0-9+/=]+/g, 'nonce-N').replace(/nonce="[^"]+"/g, 'nonce="N"');

async function streamed(
  reporter: ReporterV1,
  whole: Experiment,
  options: ReportOptions = {},
): Promise<string> {
  const chunks: string[] = [];
  const stream = reporter.streamReport;
  if (stream === undefined) throw new Error(`${reporter.name} does not stream`);
  await stream(
    { ...whole, records: [] },
    arrayPages(whole.records),
    async (c) => void chunks.push(c),
    options,
  );
  return sameNonce(chunks.join(''));
}

/** 260 trials over 26 tasks × 10 epochs: some fail, some error, one task flips (flaky). */
function longRun(): Experiment {
  const records: RunRecord[] = [];
  for (let t = 0; t < 26; t++)
    for (let epoch = 0; epoch < 10; epoch++) {
      const outcome = t === 3 && epoch % 3 === 0 ? 'fail' : t === 7 ? 'error' : t === 9 ? 'fail' : 'pass';
      records.push(
        record({
          task_id: `task-${String(t).padStart(2, '0')}`,
          epoch,
          outcome,
          duration_seconds: 0.1 + t * 0.013 + epoch * 0.0071,
          scores: { overall: outcome === 'pass' ? 1 : 0.25 },
          cost_usd: epoch % 2 === 0 ? 0.001 * t : null,
          evaluations: [evaluation({ passed: outcome === 'pass', score: outcome === 'pass' ? 1 : 0 })],
          ...(outcome === 'error' ? { error: `boom ${epoch}`, error_kind: 'environment' as const } : {}),
        }),
      );
    }
  return experiment({ records, settings: { epochs: 10 } });
}

const annotations: Annotation[] = [
  {
    id: 1,
    experiment_id: 'exp-1',
    run_id: 'run-task-09-4',
    label: 'bad',
    note: 'looks | wrong',
    author: 'ann',
    created_at: '2026-11-30T12:05:00.000Z',
  },
  {
    id: 2,
    experiment_id: 'exp-1',
    run_id: 'run-gone-0',
    label: 'gone',
    note: '',
    author: 'bo',
    created_at: '2026-11-30T12:06:00.000Z',
  },
];

const cases: [string, () => Experiment][] = [
  ['mixed outcomes and nasty text', () => mixedExperiment()],
  ['a long run with epochs', longRun],
  ['no trials', () => experiment({ records: [] })],
];

describe('streamReport writes what report returns', async () => {
  const all = await Promise.all(Object.values(builtinReporters).map((b) => b.definition.create()));
  const streaming = all.filter((r) => r.streamReport !== undefined);

  it('is implemented by every built-in reporter', () => {
    expect(streaming.map((r) => r.name).sort()).toEqual(Object.keys(builtinReporters).sort());
  });

  for (const [name, make] of cases)
    for (const options of [
      {},
      { allRows: true },
      { width: 60, color: true },
      { annotations },
    ] as ReportOptions[])
      it(`${name}, options ${JSON.stringify(Object.keys(options))}`, async () => {
        const whole = make();
        for (const reporter of streaming)
          expect(await streamed(reporter, whole, options), reporter.name).toBe(
            sameNonce(await reporter.report(whole, options)),
          );
      });

  it('reads only the failed and errored rows of a long run for the console summary', async () => {
    const whole = longRun();
    const console = streaming.find((r) => r.name === 'console');
    const pages = arrayPages(whole.records, 10);
    await console?.streamReport?.({ ...whole, records: [] }, pages, async () => {}, {});
    // The 24 failed or errored rows in pages of 10, not the 26 pages of every record.
    expect(pages.reads).toBe(3);
    const text = await streamed(console as ReporterV1, whole);
    expect(text).toContain('236 of 260 trials not shown: --all shows every row');
  });
});

describe('the TAP reporter of docs/reporters.md', () => {
  // As the doc writes it: `report` from the whole experiment, `streamReport` from pages.
  const tap: ReporterV1 = {
    specificationVersion: 'v1',
    name: 'tap',
    extensions: ['.tap'],
    async report(experiment) {
      const lines = experiment.records.map(
        (r, i) => `${r.outcome === 'pass' ? 'ok' : 'not ok'} ${i + 1} ${r.task_id}\n`,
      );
      return `1..${experiment.records.length}\n${lines.join('')}`;
    },
    async streamReport(_experiment, pages, write) {
      await write(`1..${await pages.count()}\n`);
      let n = 0;
      for await (const r of pages.records())
        await write(`${r.outcome === 'pass' ? 'ok' : 'not ok'} ${++n} ${r.task_id}\n`);
    },
  };

  it('streams what it reports', async () => {
    const whole = longRun();
    const text = await streamed(tap, whole);
    expect(text).toBe(await tap.report(whole));
    expect(text.split('\n')[0]).toBe('1..260');
  });
});
