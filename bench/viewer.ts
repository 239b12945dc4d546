/**
 * `npm run bench:viewer`: how long the viewer takes to answer its two biggest pages (issue 16's
 * speed target, <= 1 s each): the experiments list over 1,000 stored experiments and the page of
 * one experiment with 10,000 trials. A real SQLite store and a real HTTP server on 127.0.0.1;
 * medians of BENCH_RUNS (default 7) requests after one warm-up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { startViewer } from '../src/viewer/server.ts';
import { demoExperiment, trial } from '../test/helpers/experiment-fixture.ts';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const dir = await mkdtemp(join(tmpdir(), 'he-bench-viewer-'));
const path = join(dir, 'store.db');
const store = await openStore(path);
for (let i = 0; i < 1000; i++) {
  await store.createExperiment(
    demoExperiment({
      id: `exp-${String(i).padStart(4, '0')}`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }),
  );
}
const tasks = Array.from({ length: 1000 }, (_, i) => ({ id: `task-${i}` }));
await store.createExperiment(
  demoExperiment({
    id: 'exp-big',
    suite: { id: 'big-suite', name: 'Big suite', tasks },
    settings: { epochs: 10 },
    records: tasks.flatMap((t, i) =>
      Array.from({ length: 10 }, (_, epoch) =>
        trial({ task: t.id, epoch, outcome: (i + epoch) % 3 === 0 ? 'fail' : 'pass', score: 0.5 }),
      ),
    ),
  }),
);
await store.close();

const reader = await openStore(path, { readonly: true, mustExist: true });
const viewer = await startViewer({
  store: reader,
  openWritableStore: () => openStore(path),
  token: 'bench',
  host: '127.0.0.1',
  port: 0,
});

async function median(url: string): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const response = await fetch(url);
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    if (i > 0) times.push(performance.now() - start);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? Number.NaN, bytes };
}

const list = await median(`${viewer.origin}/`);
const big = await median(`${viewer.origin}/experiments/exp-big`);
const bigPage = await median(`${viewer.origin}/experiments/exp-big?page=100`);
await viewer.close();
await reader.close();
await rm(dir, { recursive: true, force: true });

const row = (name: string, r: { ms: number; bytes: number }) =>
  `| ${name} | ${r.ms.toFixed(0)} ms | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.ms <= 1000 ? 'met' : 'MISSED'} |`;
console.log(`viewer, median of ${RUNS} requests (Node ${process.version})`);
console.log('| page | median | size | <= 1 s |');
console.log('| --- | --- | --- | --- |');
console.log(row('experiments list, 1,000 experiments', list));
console.log(row('experiment, 10,000 trials (page 1)', big));
console.log(row('experiment, 10,000 trials (page 100)', bigPage));
