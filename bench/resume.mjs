#!/usr/bin/env node
// Memory of `run --resume` (issue 15): a 100,000-trial experiment (1,000 tasks x 100 epochs,
// in-process echo, SQLite) interrupted halfway, then resumed in a fresh process. Run:
// npm run bench:resume (after `npx tsdown`). BENCH_TRIALS / BENCH_EPOCHS change the size;
// BENCH_BEFORE=/path/to/other/checkout also resumes a copy of the same store with that build.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { echoSuite, runChild } from './scenario-child.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TRIALS = Number(process.env.BENCH_TRIALS ?? 100_000);
const EPOCHS = Number(process.env.BENCH_EPOCHS ?? 100);
const CONCURRENCY = 16;

if (process.argv[2] === '--child') await child(JSON.parse(process.argv[3]));
else await parent();

/** One process: the first (interrupted) run, or the resume; prints one JSON line. */
async function child({ dir, db, build, resume }) {
  const { loadSuite, openStore, runExperiment } = await import(join(build, 'dist/index.js'));
  const suite = await loadSuite(join(dir, 'suite.json'));
  const harness = {
    schema_version: 1,
    name: 'echo',
    version: '1.0.0',
    adapter: 'function',
    agents: [],
    metadata: {},
    options: { module: join(dir, 'echo.mjs#echo') },
  };
  const store = await openStore(db);
  const stop = new AbortController();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let atStart;
  let ended = 0;
  const experiment = await runExperiment({
    suite,
    harness,
    harnessBaseDir: dir,
    store,
    keepRecords: false,
    ...(resume === undefined
      ? { settings: { concurrency: CONCURRENCY, timeout_seconds: 60, epochs: EPOCHS, seed: 7 } }
      : { resume, settings: { concurrency: CONCURRENCY } }),
    signal: stop.signal,
    onEvent: (event) => {
      // The plan, the stored trials' reads and the folding of the kept ones come before run_start.
      if (event.type === 'run_start') {
        const cpu = process.cpuUsage(cpu0);
        atStart = {
          wall: performance.now() - t0,
          cpu: (cpu.user + cpu.system) / 1000,
          peakRss: process.resourceUsage().maxRSS / 1024,
          resumed: event.resumed,
        };
      }
      if (event.type === 'trial_end' && resume === undefined && ++ended === TRIALS / 2) stop.abort();
    },
  });
  const cpu = process.cpuUsage(cpu0);
  await store.close();
  process.stdout.write(
    `${JSON.stringify({
      id: experiment.id,
      status: experiment.status,
      atStart,
      wall: performance.now() - t0,
      cpu: (cpu.user + cpu.system) / 1000,
      peakRss: process.resourceUsage().maxRSS / 1024,
      successRate: experiment.metrics.find((m) => m.name === 'success_rate')?.value,
    })}\n`,
  );
}

async function parent() {
  const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-resume-'));
  writeFileSync(join(dir, 'suite.json'), echoSuite('bench-resume', TRIALS / EPOCHS));
  writeFileSync(join(dir, 'echo.mjs'), 'export function echo(input) {\n  return input;\n}\n');
  const db = join(dir, 'store.db');
  try {
    const first = await runChild(fileURLToPath(import.meta.url), { dir, db, build: root });
    console.error(`interrupted run: ${JSON.stringify(first)}`);
    if (first.status !== 'interrupted') throw new Error(`the first run ended ${first.status}`);
    const builds = [['this build', root]];
    if (process.env.BENCH_BEFORE)
      builds.push([`build in ${process.env.BENCH_BEFORE}`, process.env.BENCH_BEFORE]);
    const rows = [];
    for (const [name, build] of builds) {
      const copy = join(dir, `resume-${rows.length}.db`);
      copyFileSync(db, copy);
      const load = loadavg()[0];
      const m = await runChild(fileURLToPath(import.meta.url), { dir, db: copy, build, resume: first.id });
      if (m.status !== 'completed') throw new Error(`${name}: the resume ended ${m.status}`);
      rows.push({ name, load, ...m });
      console.error(`${name}: ${JSON.stringify(m)}`);
    }
    console.log(
      `\nresume of ${TRIALS} trials (${TRIALS / EPOCHS} tasks x ${EPOCHS} epochs) interrupted after ${TRIALS / 2}, SQLite, -j ${CONCURRENCY}; ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString()}`,
    );
    console.log(
      '| build | stored trials read | before the first trial: wall / CPU / peak RSS | whole resume: wall / CPU / peak RSS | load avg |',
    );
    console.log('| --- | --- | --- | --- | --- |');
    const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.atStart.resumed} | ${s(r.atStart.wall)} / ${s(r.atStart.cpu)} / ${r.atStart.peakRss.toFixed(0)} MB | ${s(r.wall)} / ${s(r.cpu)} / ${r.peakRss.toFixed(0)} MB | ${r.load.toFixed(1)} |`,
      );
    for (const r of rows)
      console.log(
        `RESUME PEAK RSS (${r.name}): ${r.peakRss.toFixed(0)} MB (before the first trial: ${r.atStart.peakRss.toFixed(0)} MB), load ${r.load.toFixed(1)}`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
