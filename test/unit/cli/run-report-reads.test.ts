import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun, type RunFlags } from '../../../src/cli/commands/run-action.ts';
import type { CliIO } from '../../../src/cli/io.ts';
import { ExperimentSchema } from '../../../src/core/experiment.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { loadSuite } from '../../../src/formats/load.ts';
import { createConsoleReporter } from '../../../src/reporters/console.ts';
import { createCsvReporter } from '../../../src/reporters/csv.ts';
import { createJsonReporter } from '../../../src/reporters/json.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import type { ExperimentStore, RecordPagesOptions, RecordQuery } from '../../../src/store/types.ts';

class Sink extends Writable {
  text = '';
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

/** A store that notes every read of records (an in-memory double: this is a unit test of the action). */
function spied(store: ExperimentStore): { store: ExperimentStore; reads: string[] } {
  const reads: string[] = [];
  const noted = (name: string) => (id: string, query?: RecordQuery) => {
    reads.push(`${name} ${JSON.stringify(query ?? {})}`);
    return (store[name as 'listRecords'] as (i: string, q?: RecordQuery) => unknown).call(store, id, query);
  };
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'listRecords' || prop === 'listRecordSummaries' || prop === 'listTrialRecords')
        return noted(prop);
      if (prop === 'readRecordPages')
        return (id: string, visit: (page: RunRecord[]) => unknown, options?: RecordPagesOptions) => {
          reads.push(`readRecordPages ${JSON.stringify(options ?? {})}`);
          return target.readRecordPages(id, visit as never, options);
        };
      if (prop === 'getExperiment')
        return (id: string) => {
          reads.push('getExperiment');
          return target.getExperiment(id);
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, reads };
}

const TASKS = 240;
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-run-reads-'));
  const tests = Array.from({ length: TASKS }, (_, i) => ({
    id: `t${i}`,
    input: `in ${i}`,
    expected: `in ${i}`,
  }));
  await writeFile(join(root, 'suite.json'), JSON.stringify({ version: '1.0', name: 'reads', tests }));
  await writeFile(
    join(root, 'echo.mjs'),
    "export function echo(input) { return String(input).endsWith('7') ? 'wrong' : input; }\n",
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const flags: RunFlags = {
  concurrency: 8,
  epochs: 1,
  timeout: 30,
  retries: 0,
  grace: 5,
  reporter: ['console'],
  output: [],
  durability: 'normal',
  failOnThreshold: true,
  keepWorkspaces: false,
  progress: false,
};

describe('run with a store: the reports read the records a page at a time', () => {
  it('never reads every record at once, and the files hold every record', async () => {
    const { store, reads } = spied(new MemoryStore());
    const stdout = new Sink();
    const stderr = new Sink();
    const io: CliIO = { stdout, stderr, env: {}, cwd: root, debug: false };
    const json = join(root, 'out.json');
    const csv = join(root, 'out.csv');
    const status = await executeRun({
      suite: await loadSuite(join(root, 'suite.json')),
      harness: {
        schema_version: 1,
        name: 'echo',
        version: '1.0.0',
        adapter: 'function',
        agents: [],
        metadata: {},
        options: { module: './echo.mjs#echo' },
      } as never,
      harnessBaseDir: root,
      judge: undefined,
      sandbox: undefined,
      store,
      flags,
      given: new Set(),
      inputs: { file: 'suite.json', keep: [] },
      io,
      fileReporters: [
        { reporter: createJsonReporter(), destination: json },
        { reporter: createCsvReporter(), destination: csv },
      ],
      stdoutReporters: [createConsoleReporter()],
    });
    expect(stderr.text).not.toMatch(/Error/);
    expect(status).toBe(0); // 24 of 240 answer wrong: no threshold, so the run itself succeeds
    expect(reads.length).toBeGreaterThan(0);
    expect(reads).not.toContain('getExperiment');
    for (const read of reads) {
      const asked = JSON.parse(read.slice(read.indexOf(' ') + 1)) as RecordQuery & RecordPagesOptions;
      const size = read.startsWith('readRecordPages') ? asked.pageSize : asked.limit;
      expect(size, read).toBeDefined();
      expect(size, read).toBeLessThanOrEqual(5000);
    }
    // Every read is a keyset pass (no offset windows, which re-sort the keys for every page).
    expect(reads.filter((read) => !read.startsWith('readRecordPages'))).toEqual([]);
    // The console summary read only the failed and errored rows.
    expect(reads).toContain('readRecordPages {"whole":true,"pageSize":100,"outcomes":["fail","error"]}');
    expect(stdout.text).toContain(`216 of ${TASKS} trials not shown: --all shows every row`);
    const written = ExperimentSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(written.records).toHaveLength(TASKS);
    expect((await readFile(csv, 'utf8')).split('\r\n')).toHaveLength(TASKS + 2);
  }, 60_000);
});
