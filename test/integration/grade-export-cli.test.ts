import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRADE_COLUMNS } from '../../src/reporters/grades-export.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import {
  criterion,
  GRADED_EXPERIMENT_ID,
  grade,
  gradedExperiment,
} from '../fixtures/grade-export/graded-experiment.ts';
import { makeExperiment, makeRecord } from '../helpers/experiments.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// Through the built CLI (`npx tsdown` first), on a real SQLite file.
let dir = '';
let store = '';
const tricky = '=HYPERLINK("http://x") , and "quotes"\nsecond line';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-grade-export-'));
  store = join(dir, 'store.db');
  const sqlite = new SqliteStore(store);
  await sqlite.createExperiment(
    makeExperiment({
      id: 'exp-20261201-grades',
      records: [
        makeRecord({
          criteria: [criterion('ac-01', [grade('clarity', 4), grade('tone', 2, { rationale: tricky })])],
        }),
        makeRecord({
          task_id: 'bravo',
          criteria: [
            criterion('ac-02', [
              grade('clarity', 3, { grader: 'judge', grader_kind: 'llm', judge_model: 'claude-x' }),
            ]),
          ],
        }),
      ],
    }),
  );
  await sqlite.createExperiment(makeExperiment({ id: 'exp-20261201-none' }));
  await sqlite.createExperiment(gradedExperiment());
  await sqlite.close();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('harnesseval grade export', () => {
  it('writes every grade as CSV with a header, quoting and neutralising agent-looking text', async () => {
    const result = await cli(['grade', 'export', 'exp-20261201-g', '--store', store]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toBe(GRADE_COLUMNS.join(','));
    expect(lines[1]).toBe(
      'exp-20261201-grades,alpha#0,alpha,0,ac-01,clarity,4,1,Ann,human,,2026-12-01T10:00:00.000Z,',
    );
    // The rationale is one quoted field: its quotes doubled, its formula prefix neutralised.
    expect(result.stdout).toContain(`"'=HYPERLINK(""http://x"") , and ""quotes""\nsecond line"`);
    expect(result.stdout).toContain(',judge,llm,,2026-12-01T10:00:00.000Z,claude-x\r\n');
    expect(result.stdout.trimEnd().split('\r\n')).toHaveLength(4);
  });

  it('writes JSONL to a file with -o: one object per grade with every column', async () => {
    const out = join(dir, 'out/grades.jsonl');
    const result = await cli([
      'grade',
      'export',
      'exp-20261201-grades',
      '--format',
      'jsonl',
      '-o',
      out,
      '--store',
      store,
    ]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('wrote 3 grades of exp-20261201-grades');
    const rows = (await readFile(out, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((r) => Object.keys(r))).toEqual(rows.map(() => [...GRADE_COLUMNS]));
    expect(rows[1]).toMatchObject({ dimension: 'tone', level: 2, rationale: tricky, grader_kind: 'human' });
    expect(rows[2]).toMatchObject({
      task_id: 'bravo',
      grader: 'judge',
      grader_kind: 'llm',
      judge_model: 'claude-x',
    });
  });

  it('gives only the header for an experiment without grades, and fails cleanly for an unknown one', async () => {
    const none = await cli(['grade', 'export', 'exp-20261201-none', '--store', store]);
    expect(none.status).toBe(0);
    expect(none.stdout).toBe(`${GRADE_COLUMNS.join(',')}\r\n`);
    const ghost = await cli(['grade', 'export', 'ghost', '--store', store]);
    expect(ghost.status).not.toBe(0);
    expect(ghost.stderr).toContain('ghost');
    expect(ghost.stderr).not.toMatch(/\n\s+at /);
    const format = await cli(['grade', 'export', 'exp-20261201-none', '--format', 'xml', '--store', store]);
    expect(format.status).not.toBe(0);
    expect(format.stderr).toContain('xml');
  });
});

describe('harnesseval grade export, golden files', () => {
  // golden.csv and golden.jsonl were written by `grade export` when it read the whole experiment
  // at once; reading records a page at a time must give the same bytes.
  const golden = (format: string) =>
    readFile(join(ROOT, `test/fixtures/grade-export/golden.${format}`), 'utf8');

  it('writes the same CSV and JSONL, to stdout and with -o, as before it read in pages', async () => {
    for (const format of ['csv', 'jsonl']) {
      const expected = await golden(format);
      const shown = await cli([
        'grade',
        'export',
        GRADED_EXPERIMENT_ID,
        '--format',
        format,
        '--store',
        store,
      ]);
      expect(shown.stderr).toBe('');
      expect(shown.status).toBe(0);
      expect(shown.stdout).toBe(expected);
      const out = join(dir, `golden-out.${format}`);
      const written = await cli([
        'grade',
        'export',
        'exp-20261202-g',
        '--format',
        format,
        '-o',
        out,
        '--store',
        store,
      ]);
      expect(written.status).toBe(0);
      expect(written.stderr).toContain(`wrote 8 grades of ${GRADED_EXPERIMENT_ID} to ${out}`);
      expect(await readFile(out, 'utf8')).toBe(expected);
    }
  });
});
