import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import type { ExperimentStore } from '../../src/store/types.ts';
import { startViewer } from '../../src/viewer/server.ts';
import { demoExperiment, trial } from '../helpers/experiment-fixture.ts';
import { ROOT } from '../helpers/run-cli.ts';

// The grading page over a real SQLite store and HTTP server: it reads the trial summaries to find
// the trials that wait for a grade and shows the first 20 criteria, in order, far apart or not.
const SUITE = join(ROOT, 'test/fixtures/grade/suite.yaml');
/** Of 300 trials, these wait for a grade: near ones, and some far apart. */
const WAITING = [
  0, 1, 2, 5, 40, 41, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 200, 201, 260, 270, 280, 299,
];

let dir = '';
let store: ExperimentStore;
let viewer: Awaited<ReturnType<typeof startViewer>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-view-grading-'));
  const path = join(dir, 'store.db');
  const writer = await openStore(path);
  const records = Array.from({ length: 300 }, (_, epoch) => {
    const waits = WAITING.includes(epoch);
    return {
      ...trial({ task: 'tiny-task', epoch, outcome: 'pass', score: 1 }),
      outcome: waits ? ('pending' as const) : ('pass' as const),
      criteria: [
        {
          id: 'ac-02',
          verification: 'rubric' as const,
          status: waits ? ('pending' as const) : ('passed' as const),
          score: waits ? null : 1,
        },
      ],
    };
  });
  await writer.createExperiment(
    demoExperiment({
      id: 'exp-grading',
      suite: { id: 'grade-suite', file: SUITE, tasks: [{ id: 'tiny-task' }] },
      settings: { epochs: 300 },
      records,
    }),
  );
  await writer.close();
  store = await openStore(path, { readonly: true, mustExist: true });
  viewer = await startViewer({
    store,
    openWritableStore: () => openStore(path),
    token: 'tok',
    host: '127.0.0.1',
    port: 0,
  });
}, 60_000);

afterAll(async () => {
  await viewer?.close();
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('counts every waiting criterion and shows the first 20, in trial order, read from their summaries', async () => {
  const response = await fetch(`${viewer.origin}/experiments/exp-grading/grade`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain(`${WAITING.length} criteria wait for a grade (the first 20 are below`);
  const shown = [...html.matchAll(/<article class="grade-item" data-run="([^"]+)"/g)].map((m) => m[1]);
  expect(shown).toEqual(WAITING.slice(0, 20).map((epoch) => `run-tiny-task-${epoch}`));
  expect(html).toContain('(epoch 270)');
  expect(html).not.toContain('(epoch 280)');
});
