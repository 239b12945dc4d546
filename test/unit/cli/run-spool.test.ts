import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { glanceOf, writeSpooledJson } from '../../../src/cli/report-pages.ts';
import { RunSpool } from '../../../src/cli/run-spool.ts';
import type { Experiment } from '../../../src/core/experiment.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { jsonFrame, renderJson } from '../../../src/reporters/json.ts';
import { foldRun } from '../../../src/reporters/run-fold.ts';
import type { RecordPages } from '../../../src/reporters/types.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

// The run's spool stands in for two passes over the store (the fold of the glances, the json
// report's records): what it gives must be what those passes give, whatever order trials finish in.

const SECRET = 'sk-spooled-0123456789';

const experiment: Experiment = makeExperiment({
  suite: { id: 's', name: 'S', tasks: [{ id: 'a' }, { id: 'b', weight: 2 }, { id: 'c' }] },
  settings: { epochs: 2 },
});

/** Every trial of the plan in plan order (task, then epoch), with a fail, an error and a flip. */
function planRecords(): RunRecord[] {
  const outcome = (task: string, epoch: number): RunRecord['outcome'] =>
    task === 'b' ? 'fail' : task === 'c' && epoch === 1 ? 'error' : 'pass';
  return ['a', 'b', 'c'].flatMap((task) =>
    [0, 1].map((epoch) =>
      makeRecord({
        task_id: task,
        epoch,
        outcome: outcome(task, epoch),
        duration_seconds: 0.1 * (epoch + 1),
        scores: { exact: outcome(task, epoch) === 'pass' ? 1 : 0 },
        ...(outcome(task, epoch) === 'error' ? { error: `broke with ${SECRET}`, error_kind: 'crash' } : {}),
      }),
    ),
  );
}

/** The pages a pass over the store would give for these records (already in the store's order). */
function pagesOf(records: readonly RunRecord[]): RecordPages {
  return {
    count: async () => records.length,
    async *records() {
      yield* records;
    },
    async *glances() {
      for (const r of records) yield glanceOf(r);
    },
  };
}

/** What the spool wrote for the json report, framed as the report writes it. */
function spooledJson(spool: RunSpool, stored: number): string | undefined {
  const spooled = spool.json(stored);
  if (spooled === undefined) return undefined;
  const { head, tail } = jsonFrame(experiment);
  return head + readFileSync(spooled.path, 'utf8') + tail(spooled.count);
}

const spools: RunSpool[] = [];
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'harnesseval-spool-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  for (const spool of spools.splice(0)) spool.dispose();
});

function started(options: { env?: NodeJS.ProcessEnv; trials?: number; resumed?: number } = {}) {
  const spool = RunSpool.start(
    experiment,
    { trials: options.trials ?? 6, resumed: options.resumed ?? 0 },
    { env: options.env ?? {}, json: join(dir, 'reports', 'out.json') },
  );
  if (spool !== undefined) spools.push(spool);
  return spool;
}

describe('RunSpool', () => {
  it('gives the json report and the fold a pass over the store gives, trials finishing out of order', async () => {
    const records = planRecords();
    const spool = started();
    expect(spool).toBeDefined();
    for (const i of [3, 0, 5, 1, 4, 2]) spool?.add(records[i]!);
    spool?.finish();
    expect(spooledJson(spool!, 6)).toBe(renderJson({ ...experiment, records }));
    const fold = spool?.folded(6);
    expect(fold).toEqual(await foldRun(experiment, pagesOf(records)));
    expect(fold?.counts).toMatchObject({ pass: 3, fail: 2, error: 1, total: 6, missing: 0 });
    expect(fold?.flaky.map((f) => f.task_id)).toEqual(['c']);
  });

  it('scrubs the secrets of the environment as the store and the report do', async () => {
    const records = planRecords();
    const env = { API_TOKEN: SECRET };
    const spool = started({ env });
    for (const record of [...records].reverse()) spool?.add(record);
    spool?.finish();
    const text = spooledJson(spool!, 6) ?? '';
    expect(text).not.toContain(SECRET);
    expect(text).toContain('broke with [REDACTED:API_TOKEN]');
    const scrubbed = records.map((r) =>
      JSON.parse(JSON.stringify(r).replaceAll(SECRET, '[REDACTED:API_TOKEN]')),
    );
    expect(text).toBe(renderJson({ ...experiment, records: scrubbed }));
  });

  it('holds what finished of an interrupted run, in plan order', () => {
    const records = planRecords();
    const spool = started();
    for (const i of [4, 0, 2]) spool?.add(records[i]!);
    spool?.finish();
    const kept = [0, 2, 4].map((i) => records[i]!);
    expect(spooledJson(spool!, 3)).toBe(renderJson({ ...experiment, records: kept }));
    expect(spool?.folded(3)?.counts).toMatchObject({ total: 3, missing: 3 });
  });

  // Over 4 MB of multi-byte text: the copy's chunks split characters, as bytes.
  it('is written as a report by its frame around the spooled bytes; a bad destination is a usage error naming it', async () => {
    const records = planRecords().map((r, i) =>
      i === 2 ? { ...r, error: 'ünïcödé ✓ 🎉'.repeat(200_000) } : r,
    );
    const spool = started();
    for (const record of records) spool?.add(record);
    spool?.finish();
    const out = join(dir, 'written', 'out.json');
    expect(await writeSpooledJson(out, experiment, spool!.json(6)!)).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe(renderJson({ ...experiment, records }));
    // A spool that is gone is not written from: the caller reads the store.
    const gone = join(dir, 'gone.json');
    expect(await writeSpooledJson(gone, experiment, { path: join(dir, 'no-such-spool'), count: 6 })).toBe(
      false,
    );
    expect(existsSync(gone)).toBe(false);
    mkdirSync(join(dir, 'folder.json'));
    await expect(
      writeSpooledJson(join(dir, 'folder.json'), experiment, spool!.json(6)!),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(`cannot write the report to ${join(dir, 'folder.json')}`),
    });
  });

  it('drops the json spool, not the fold, when records pile up behind a slow trial', () => {
    const records = planRecords().map((r) => ({
      ...r,
      output: { ...r.output, output: 'x'.repeat(9 << 20) },
    }));
    const spool = started();
    const path = join(dir, 'reports', `.out.json.${process.pid}.records.tmp`);
    expect(existsSync(path)).toBe(true);
    // The first trial is slow: four records of 9 MB each wait for it, past the 32 MB limit.
    for (const i of [1, 2, 3, 4]) spool?.add(records[i]!);
    expect(existsSync(path)).toBe(false);
    for (const i of [0, 5]) spool?.add(records[i]!);
    spool?.finish();
    expect(spool?.json(6)).toBeUndefined();
    expect(spool?.folded(6)?.counts.total).toBe(6);
  });

  it('is not used when the store holds another number of trials', () => {
    const records = planRecords();
    const spool = started();
    for (const record of records) spool?.add(record);
    spool?.finish();
    expect(spool?.json(7)).toBeUndefined();
    expect(spool?.folded(5)).toBeUndefined();
    expect(spool?.json(6)).toBeDefined();
  });

  it('is not used when a trial lies outside the plan', () => {
    const spool = started();
    spool?.add(makeRecord({ task_id: 'zulu', epoch: 0 }));
    spool?.add(planRecords()[0]!);
    spool?.finish();
    expect(spool?.json(1)).toBeUndefined();
    expect(spool?.folded(1)).toBeUndefined();
  });

  it('is not made for a resume, a retry or a plan that is not every trial', () => {
    expect(started({ resumed: 2, trials: 4 })).toBeUndefined();
    expect(started({ trials: 5 })).toBeUndefined();
  });

  it('spools beside the json report (its folder made) and leaves no file behind', () => {
    const spool = started();
    for (const record of planRecords()) spool?.add(record);
    spool?.finish();
    const path = spool?.json(6)?.path ?? '';
    expect(dirname(path)).toBe(join(dir, 'reports'));
    expect(existsSync(path)).toBe(true);
    spool?.dispose();
    expect(readdirSync(join(dir, 'reports'))).toEqual([]);
    expect(spool?.json(6)).toBeUndefined();
  });

  it("removes the spools that killed runs left beside the report, not a live process's or another report's", () => {
    const reports = join(dir, 'stale');
    mkdirSync(reports);
    // A process that has ended: its id names no process now.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(reports, `.out.json.${dead}.records.tmp`);
    const live = join(reports, `.out.json.${process.ppid}.records.tmp`);
    const other = join(reports, `.other.json.${dead}.records.tmp`);
    for (const file of [stale, live, other]) writeFileSync(file, 'x');
    const spool = RunSpool.start(
      experiment,
      { trials: 6, resumed: 0 },
      { env: {}, json: join(reports, 'out.json') },
    );
    spools.push(spool!);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(join(reports, `.out.json.${process.pid}.records.tmp`))).toBe(true);
  });

  it('folds without a json report, and without one when its folder cannot be made', () => {
    const records = planRecords();
    for (const json of [undefined, join(dir, 'file', 'out.json')]) {
      if (json !== undefined) writeFileSync(join(dir, 'file'), 'not a folder');
      const spool = RunSpool.start(experiment, { trials: 6, resumed: 0 }, { env: {}, json });
      spools.push(spool!);
      for (const record of records) spool?.add(record);
      spool?.finish();
      expect(spool?.json(6)).toBeUndefined();
      expect(spool?.folded(6)?.counts.total).toBe(6);
    }
  });
});
