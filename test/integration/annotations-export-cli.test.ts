import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Annotation } from '../../src/core/annotation.ts';
import { openStore } from '../../src/store/index.ts';
import { makeExperiment, makeRecord } from '../helpers/experiments.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { cli } from '../helpers/run-cli.ts';

// The built CLI (`npx tsdown` first): annotations travel with `runs export` / `runs import`
// between SQLite stores and PostgreSQL unchanged, and the Markdown report shows them escaped.
const CLI_TIMEOUT_MS = 120_000;
const HOSTILE = '<script>alert(1)</script> | `rm -rf` ![x](http://evil.test/b.png)\nsecond line';

const experiment = makeExperiment({
  id: 'exp-annotated',
  outcome: 'fail',
  records: [makeRecord({ task_id: 'alpha' }), makeRecord({ task_id: 'bravo', outcome: 'fail' })],
});

let dir = '';
let source = '';
let stored: Annotation[] = [];
let pgUrl = '';

const withoutIds = (list: readonly Annotation[]) => list.map(({ id: _id, ...rest }) => rest);

async function annotationsIn(location: string): Promise<Annotation[]> {
  const store = await openStore(location, { readonly: true });
  try {
    return await store.listAnnotations(experiment.id);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-annot-export-'));
  source = join(dir, 'source.db');
  const store = await openStore(source);
  try {
    await store.createExperiment(experiment);
    const first = await store.addAnnotation(experiment.id, {
      run_id: 'bravo#0',
      label: 'flaky-env',
      note: HOSTILE,
      author: 'Ada',
    });
    await store.addAnnotation(experiment.id, { run_id: 'alpha#0', note: 'checked by hand', author: 'Bo' });
    await store.addAnnotation(experiment.id, { run_id: 'bravo#0', label: 'needs-rubric', author: 'Cy' });
    // An edited one: its updated_at must survive the trip too.
    await store.updateAnnotation(experiment.id, first.id, {
      label: 'real-bug',
      note: HOSTILE,
      author: 'Ada',
    });
    stored = await store.listAnnotations(experiment.id);
  } finally {
    await store.close();
  }
  pgUrl = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('annotations in runs export and import', () => {
  it(
    'go SQLite → SQLite → PostgreSQL → SQLite with every field and time kept, the export the same bytes each time',
    async () => {
      const exported = await cli(['runs', '--store', source, 'export', 'exp-annotated', '-o', 'a.json'], dir);
      expect(exported.status, exported.stderr).toBe(0);
      const text = await readFile(join(dir, 'a.json'), 'utf8');
      const file = JSON.parse(text);
      expect(file.annotations).toEqual(withoutIds(stored).map(({ experiment_id: _e, ...rest }) => rest));
      expect(file.annotations[0]).toMatchObject({ label: 'real-bug', note: HOSTILE });
      expect(file.annotations[0].updated_at).toEqual(expect.any(String));

      const copy = join(dir, 'copy.db');
      const imported = await cli(['runs', '--store', copy, 'import', 'a.json'], dir);
      expect(imported.status, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('Imported exp-annotated (2 records, 3 annotations)');
      expect(withoutIds(await annotationsIn(copy))).toEqual(withoutIds(stored));
      expect((await cli(['runs', '--store', copy, 'export', 'exp-annotated'], dir)).stdout).toBe(text);

      expect((await cli(['runs', '--store', pgUrl, 'import', 'a.json'], dir)).status).toBe(0);
      expect(withoutIds(await annotationsIn(pgUrl))).toEqual(withoutIds(stored));
      const fromPg = await cli(['runs', '--store', pgUrl, 'export', 'exp-annotated', '-o', 'pg.json'], dir);
      expect(fromPg.status, fromPg.stderr).toBe(0);
      expect(await readFile(join(dir, 'pg.json'), 'utf8')).toBe(text);

      const back = join(dir, 'back.db');
      expect((await cli(['runs', '--store', back, 'import', 'pg.json'], dir)).status).toBe(0);
      expect(withoutIds(await annotationsIn(back))).toEqual(withoutIds(stored));
      // --replace puts the annotations back once, not beside the old ones.
      expect((await cli(['runs', '--store', back, 'import', 'pg.json', '--replace'], dir)).status).toBe(0);
      expect(await annotationsIn(back)).toHaveLength(3);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'refuses an annotation on a trial the file does not hold, located, storing nothing',
    async () => {
      const text = (await readFile(join(dir, 'a.json'), 'utf8')).replace(
        '"run_id": "alpha#0",\n      "label"',
        '"run_id": "zulu#0",\n      "label"',
      );
      expect(text).toContain('zulu#0');
      await writeFile(join(dir, 'bad.json'), text);
      const target = join(dir, 'bad.db');
      const result = await cli(['runs', '--store', target, 'import', 'bad.json'], dir);
      expect(result.status).toBe(1);
      const line = text.split('\n').findIndex((l) => l.includes('zulu#0')) + 1;
      expect(result.stderr).toMatch(new RegExp(`bad\\.json:${line}:\\d+: annotations\\[1\\]\\.run_id: `));
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(target)).toBe(false);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'are in the Markdown report beside their trial, escaped, from the store and from an export',
    async () => {
      const fromStore = await cli(['report', 'exp-annotated', '--store', source, '-f', 'markdown'], dir);
      expect(fromStore.status, fromStore.stderr).toBe(0);
      const fromFile = await cli(['report', 'a.json', '-f', 'markdown'], dir);
      expect(fromFile.status, fromFile.stderr).toBe(0);
      expect(fromFile.stdout).toBe(fromStore.stdout);
      const section = fromStore.stdout.slice(fromStore.stdout.indexOf('### Annotations (3)'));
      const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Task'));
      // Grouped by trial in the experiment's order (alpha, then bravo), oldest first within one.
      expect(rows.map((r) => r.split(' | ').slice(0, 2))).toEqual([
        ['| alpha', ''],
        ['| bravo', 'real-bug'],
        ['| bravo', 'needs-rubric'],
      ]);
      const hostile = rows[1] ?? '';
      expect(hostile).toContain(
        '&lt;script&gt;alert(1)&lt;/script&gt; \\| \\`rm -rf\\` !\\[x\\](http://evil.test/b.png) second line',
      );
      expect(hostile).toContain('| Ada |');
      expect(hostile).toMatch(/\| \d{4}-\d\d-\d\d \d\d:\d\d \(edited\) \|$/);
      expect(fromStore.stdout).not.toContain('<script>');
    },
    CLI_TIMEOUT_MS,
  );
});
