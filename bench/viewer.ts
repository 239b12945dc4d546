/**
 * `npm run bench:viewer`: how long the viewer takes to answer its two biggest pages (issue 16's
 * speed target, <= 1 s each): the experiments list over 1,000 stored experiments and the page of
 * one experiment with 10,000 trials; and the grading page and grade download of an experiment of
 * 10,000 trials that each wait for a rubric grade. A real SQLite store and a real HTTP server on
 * 127.0.0.1; medians of BENCH_RUNS (default 7) requests after one warm-up, with the server's CPU
 * time per request (it runs in this process) and the load average.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
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
// The grading page's worst case: every trial waits for a grade of its rubric criterion.
const GRADE_SUITE = join(import.meta.dirname, '../test/fixtures/grade/suite.yaml');
const graded = (epoch: number) => {
  const draft = trial({ task: 'tiny-task', epoch, outcome: 'pass', score: 0.5 });
  return {
    ...draft,
    outcome: 'pending' as const,
    criteria: [
      { id: 'ac-01', verification: 'automated' as const, status: 'passed' as const, score: 1 },
      { id: 'ac-02', verification: 'rubric' as const, status: 'pending' as const, score: null },
    ],
  };
};
await store.createExperiment(
  demoExperiment({
    id: 'exp-grade',
    suite: { id: 'grade-suite', file: GRADE_SUITE, tasks: [{ id: 'tiny-task' }] },
    settings: { epochs: 10_000 },
    records: Array.from({ length: 10_000 }, (_, epoch) => graded(epoch)),
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

interface Timing {
  ms: number;
  cpuMs: number;
  bytes: number;
}

const middle = (values: number[]) =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function median(url: string): Promise<Timing> {
  const times: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    const response = await fetch(url);
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    const spent = process.cpuUsage(used);
    if (i > 0) {
      times.push(performance.now() - start);
      cpu.push((spent.user + spent.system) / 1000);
    }
    bytes = body.length;
  }
  return { ms: middle(times), cpuMs: middle(cpu), bytes };
}

const list = await median(`${viewer.origin}/`);
const big = await median(`${viewer.origin}/experiments/exp-big`);
const bigPage = await median(`${viewer.origin}/experiments/exp-big?page=100`);
const grading = await median(`${viewer.origin}/experiments/exp-grade/grade`);
const grades = await median(`${viewer.origin}/experiments/exp-grade/grades.csv`);
await viewer.close();
await reader.close();
await rm(dir, { recursive: true, force: true });

const row = (name: string, r: Timing) =>
  `| ${name} | ${r.ms.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.ms <= 1000 ? 'met' : 'MISSED'} |`;
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(`viewer, median of ${RUNS} requests (Node ${process.version}, load average ${load})`);
console.log('| page | median | CPU | size | <= 1 s |');
console.log('| --- | --- | --- | --- | --- |');
console.log(row('experiments list, 1,000 experiments', list));
console.log(row('experiment, 10,000 trials (page 1)', big));
console.log(row('experiment, 10,000 trials (page 100)', bigPage));
console.log(row('grading page, 10,000 trials pending', grading));
console.log(row('grades.csv, 10,000 trials (no grades yet)', grades));
