import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../../src/core/experiment.ts';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { createJsonReporter, renderJson } from '../../../src/reporters/json.ts';
import { createJsonlReporter, renderJsonl } from '../../../src/reporters/jsonl.ts';
import { experiment, mixedExperiment, record } from './experiment-factory.ts';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'he-json-'));
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
}

describe('json reporter', () => {
  it('round-trips through ExperimentSchema, nasty strings included', () => {
    const e = mixedExperiment();
    const text = renderJson(e);
    expect(ExperimentSchema.parse(JSON.parse(text))).toEqual(e);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('\n  "id": "exp-1"');
  });

  it('writes to a destination, creating parent folders', async () => {
    const destination = join(await tempDir(), 'a', 'b', 'experiment.json');
    const text = await createJsonReporter().report(mixedExperiment(), { destination });
    expect(await readFile(destination, 'utf8')).toBe(text);
  });

  it('fails with a usage error naming the file when it cannot write', async () => {
    const dir = await tempDir();
    const blocker = join(dir, 'file');
    await writeFile(blocker, 'x');
    await expect(
      createJsonReporter().report(mixedExperiment(), { destination: join(blocker, 'x.json') }),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('cannot write the report to'),
    });
  });
});

describe('jsonl reporter', () => {
  it('report() renders one record per line that parses back', () => {
    const e = mixedExperiment();
    const parsed = renderJsonl(e)
      .trimEnd()
      .split('\n')
      .map((l) => RunRecordSchema.parse(JSON.parse(l)));
    expect(parsed).toEqual(e.records);
  });

  it('gives an empty text for an experiment without trials', () => {
    expect(renderJsonl(experiment())).toBe('');
  });

  it('streams: truncates at run start, appends a line as each trial finishes, ends in file order', async () => {
    const destination = join(await tempDir(), 'nested', 'run.jsonl');
    const a = record({ task_id: 'a', outcome: 'pass' });
    const b = record({ task_id: 'b', outcome: 'fail' });
    const c = record({ task_id: 'c', outcome: 'error', error: 'line\nbreak "quoted"' });
    const reporter = createJsonlReporter();
    const start = experiment({ suite: { id: 's', tasks: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } });

    await reporter.onRunStart?.(start, { destination });
    expect(await lines(destination)).toEqual([]);

    await reporter.onTrialEnd?.(c);
    expect((await lines(destination)).map((l) => JSON.parse(l).task_id)).toEqual(['c']);
    await reporter.onTrialEnd?.(a);
    expect((await lines(destination)).map((l) => JSON.parse(l).task_id)).toEqual(['c', 'a']);
    await reporter.onTrialEnd?.(b);
    expect(await lines(destination)).toHaveLength(3);

    await reporter.onRunEnd?.({ ...start, records: [a, b, c] });
    const finished = (await lines(destination)).map((l) => RunRecordSchema.parse(JSON.parse(l)));
    expect(finished.map((r) => r.task_id)).toEqual(['a', 'b', 'c']);
    expect(finished[2]?.error).toBe('line\nbreak "quoted"');
  });

  it('truncates an old file and keeps the records a resumed run already has', async () => {
    const destination = join(await tempDir(), 'run.jsonl');
    await writeFile(destination, 'old line 1\nold line 2\n');
    const done = record({ task_id: 'a', outcome: 'pass' });
    const reporter = createJsonlReporter();
    await reporter.onRunStart?.(experiment({ records: [done] }), { destination });
    expect((await lines(destination)).map((l) => JSON.parse(l).task_id)).toEqual(['a']);
  });

  it('keeps the streamed lines when the run ends with fewer records than were written', async () => {
    const destination = join(await tempDir(), 'run.jsonl');
    const reporter = createJsonlReporter();
    await reporter.onRunStart?.(experiment(), { destination });
    await reporter.onTrialEnd?.(record({ task_id: 'a', outcome: 'pass' }));
    await reporter.onRunEnd?.(experiment());
    expect(await lines(destination)).toHaveLength(1);
  });

  it('does nothing in the hooks without a destination', async () => {
    const reporter = createJsonlReporter();
    await reporter.onRunStart?.(experiment());
    await expect(reporter.onTrialEnd?.(record({ task_id: 'a', outcome: 'pass' }))).resolves.toBeUndefined();
    await expect(reporter.onRunEnd?.(experiment())).resolves.toBeUndefined();
  });
});
