// PostgreSQL store figures (issue 15): store overhead per trial (commit included) and `compare` of
// two 10,000-trial experiments read from PostgreSQL. Run: npx tsdown && npm run bench:postgres
// A throw-away cluster on 127.0.0.1 with PostgreSQL's durable defaults (fsync and synchronous
// commit on: a record is on disk when appendRecord resolves), stopped at the end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, stopCluster } from '../test/helpers/postgres-cluster.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TRIALS = Number(process.env['BENCH_TRIALS'] ?? 10_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = 16;
const compareOnly = process.env['BENCH_ONLY'] === 'compare';

// biome-ignore lint/suspicious/noExplicitAny: the built library, loaded at run time
type Library = any;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

/** One run of TRIALS in-process echo trials (0 ms) at -j 16; wall and CPU ms of the trial phase. */
async function runOnce(lib: Library, dir: string, store: unknown) {
  const suite = await lib.loadSuite(join(dir, 'suite.json'));
  const harness = {
    schema_version: 1,
    name: 'echo',
    version: '1.0.0',
    adapter: 'function',
    agents: [],
    metadata: {},
    options: { module: join(dir, 'echo.mjs#echo') },
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let trialsEnd = { wall: 0, cpu: 0 };
  const experiment = await lib.runExperiment({
    onEvent: (event: { type: string; progress: { done: number; total: number } }) => {
      if (event.type === 'trial_end' && event.progress.done === event.progress.total) {
        const cpu = process.cpuUsage(cpu0);
        trialsEnd = { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };
      }
    },
    suite,
    harness,
    harnessBaseDir: dir,
    ...(store ? { store } : {}),
    settings: { concurrency: CONCURRENCY, timeout_seconds: 60 },
  });
  if (experiment.records.length !== TRIALS) throw new Error(`${experiment.records.length} records`);
  return { id: experiment.id as string, ...trialsEnd };
}

/** appendRecord one at a time (nothing else in flight): the latency of one durable commit. */
async function commitLatency(
  lib: Library,
  url: string,
  baseId: string,
  count: number,
  durability: 'normal' | 'full',
) {
  const store = await lib.openStore(url, { durability });
  const base = await store.getExperiment(baseId);
  const record = base.records[0];
  const id = `latency-probe-${durability}`;
  await store.createExperiment({ ...base, id, records: [] });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await store.appendRecord(id, { ...record, experiment_id: id, run_id: `p${i}`, task_id: `t${i}` });
    times.push(performance.now() - t);
  }
  await store.close();
  return { median: median(times), p95: quantile(times, 0.95) };
}

/** `harnesseval compare A B` as a user runs it: a fresh process, 5 times; medians of wall and CPU ms. */
function compareCli(store: string, a: string, b: string, env: NodeJS.ProcessEnv) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const args = [join(root, 'bin/harnesseval.js'), 'compare', a, b, '--store', store, '--format', 'json'];
    const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env,
    });
    wall.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`compare exited ${r.status}: ${r.stderr}`);
    const m = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
    if (m) cpu.push((Number(m[1]) + Number(m[2])) * 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Where compare's time goes, in this process (CPU ms): the two reads, the comparison, the suite file. */
async function compareParts(lib: Library, store: string, a: string, b: string, suiteFile: string) {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const opened = await lib.openStore(store);
  let c = cpu();
  for (const id of [a, b])
    if ((await opened.getExperiment(id)) === undefined) throw new Error(`${id} missing`);
  const read = cpu() - c;
  c = cpu();
  // What `compare` reads: each document, then its trial records (records cut to the metric fields).
  const trial = [];
  for (const id of [a, b])
    trial.push({ ...(await opened.getExperimentDocument(id)), records: await opened.listTrialRecords(id) });
  const trialRead = cpu() - c;
  await opened.close();
  c = cpu();
  lib.compareExperiments(trial);
  const compare = cpu() - c;
  c = cpu();
  await lib.loadSuite(suiteFile);
  return { read, trialRead, compare, suite: cpu() - c };
}

async function main() {
  const lib: Library = await import(join(root, 'dist/index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-pg-'));
  // Its own folder under /tmp: the server user must reach it (a mkdtemp folder is 0700).
  const clusterDir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-pg-cluster-'));
  try {
    const tests = Array.from({ length: TRIALS }, (_, i) => ({
      id: `t${i}`,
      input: `hello ${i}`,
      expected: `hello ${i}`,
    }));
    writeFileSync(join(dir, 'suite.json'), JSON.stringify({ version: '1.0', name: 'bench-echo', tests }));
    writeFileSync(join(dir, 'echo.mjs'), 'export function echo(input) { return input; }\n');
    const cluster = await startCluster({ dir: clusterDir, durable: true });
    const url = `postgres://postgres@127.0.0.1:${cluster.port}/postgres`;
    const load = loadavg()[0] ?? 0;

    // Interleaved rounds, so a noisy moment hits all alike.
    type Run = { wall: number; cpu: number };
    const none: Run[] = [];
    const sqliteRuns: Run[] = [];
    const normal: Run[] = [];
    const full: Run[] = [];
    const ids: string[] = [];
    // BENCH_ONLY=compare: just the two experiments compare reads (a run each), no overhead rounds.
    for (let round = 0; round < (compareOnly ? 2 : ROUNDS); round++) {
      if (compareOnly) {
        const store = await lib.openStore(url);
        ids.push((await runOnce(lib, dir, store)).id);
        await store.close();
        continue;
      }
      none.push(await runOnce(lib, dir, undefined));
      const local = await lib.openStore(join(dir, `round-${round}.db`));
      sqliteRuns.push(await runOnce(lib, dir, local));
      await local.close();
      for (const [durability, runs] of [
        ['normal', normal],
        ['full', full],
      ] as const) {
        const store = await lib.openStore(url, { durability });
        const run = await runOnce(lib, dir, store);
        await store.close();
        runs.push(run);
        if (durability === 'normal') ids.push(run.id);
      }
      console.error(
        `round ${round + 1}: no store ${none.at(-1)?.wall.toFixed(0)} ms, sqlite ${sqliteRuns.at(-1)?.wall.toFixed(0)} ms, postgres normal ${normal.at(-1)?.wall.toFixed(0)} ms, full ${full.at(-1)?.wall.toFixed(0)} ms`,
      );
    }
    const perTrial = (xs: readonly Run[], key: 'wall' | 'cpu') => median(xs.map((x) => x[key])) / TRIALS;
    const overhead = perTrial(normal, 'wall') - perTrial(none, 'wall');
    const overheadFull = perTrial(full, 'wall') - perTrial(none, 'wall');

    const [a = '', b = ''] = ids;
    const latency = compareOnly ? { median: 0, p95: 0 } : await commitLatency(lib, url, a, 2000, 'normal');
    const latencyFull = compareOnly ? { median: 0, p95: 0 } : await commitLatency(lib, url, a, 500, 'full');

    // compare from PostgreSQL, and from SQLite holding the same two experiments. compare reads the
    // candidate's suite file for thresholds when it exists: measured with it and without it.
    const sqlite = join(dir, 'same.db');
    const source = await lib.openStore(url);
    const target = await lib.openStore(sqlite);
    for (const id of [a, b]) await target.createExperiment(await source.getExperiment(id));
    await source.close();
    await target.close();
    const env = { ...process.env };
    const pgCompare = compareCli(url, a, b, env);
    const sqliteCompare = compareCli(sqlite, a, b, env);
    const pgParts = await compareParts(lib, url, a, b, join(dir, 'suite.json'));
    const sqliteParts = await compareParts(lib, sqlite, a, b, join(dir, 'suite.json'));
    renameSync(join(dir, 'suite.json'), join(dir, 'suite.moved.json'));
    const pgNoSuite = compareCli(url, a, b, env);
    renameSync(join(dir, 'suite.moved.json'), join(dir, 'suite.json'));

    const ms = (x: number) => `${x.toFixed(3)} ms`;
    const sec = (x: number) => `${(x / 1000).toFixed(2)} s`;
    const loadEnd = loadavg()[0] ?? 0;
    if (!compareOnly) printOverhead();
    console.log(
      `\ncompare of two ${TRIALS}-trial experiments (CLI, fresh process, median of 5; wall / CPU; load ${load.toFixed(1)} at the start, ${loadEnd.toFixed(1)} now):`,
    );
    console.log(`- PostgreSQL: ${sec(pgCompare.wall)} / ${sec(pgCompare.cpu)}`);
    console.log(
      `- PostgreSQL, suite file gone (no thresholds to read): ${sec(pgNoSuite.wall)} / ${sec(pgNoSuite.cpu)}`,
    );
    console.log(`- SQLite, same experiments: ${sec(sqliteCompare.wall)} / ${sec(sqliteCompare.cpu)}`);
    for (const [name, p] of [
      ['PostgreSQL', pgParts],
      ['SQLite', sqliteParts],
    ] as const)
      console.log(
        `- CPU in-process, ${name}: two getExperiment (whole records, for reference) ${sec(p.read)}, two documents + listTrialRecords (what compare reads) ${sec(p.trialRead)}, compareExperiments ${sec(p.compare)}, loadSuite (thresholds) ${sec(p.suite)}`,
      );
    console.log(
      `\nCOMPARE WALL TIME, PostgreSQL, two ${TRIALS}-trial experiments: ${sec(pgCompare.wall)} (CPU ${sec(pgCompare.cpu)}) — target <= 2 s: ${pgCompare.wall <= 2000 ? 'met' : 'NOT met'}${loadEnd > 1.5 ? ` (load ${loadEnd.toFixed(1)}: judge on a quiet machine)` : ''}`,
    );

    function printOverhead() {
      console.log(
        `\n${TRIALS} in-process echo trials (0 ms), -j ${CONCURRENCY}, ${ROUNDS} interleaved rounds (medians); ` +
          `${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC, load ${load.toFixed(1)}`,
      );
      console.log(
        '| store | trials: wall/trial | trials: CPU/trial | overhead/trial |\n| --- | --- | --- | --- |',
      );
      console.log(`| --no-store | ${ms(perTrial(none, 'wall'))} | ${ms(perTrial(none, 'cpu'))} | - |`);
      console.log(
        `| SQLite, durability normal (for reference) | ${ms(perTrial(sqliteRuns, 'wall'))} | ${ms(perTrial(sqliteRuns, 'cpu'))} | ${ms(perTrial(sqliteRuns, 'wall') - perTrial(none, 'wall'))} |`,
      );
      console.log(
        `| PostgreSQL, durability normal (synchronous_commit off) | ${ms(perTrial(normal, 'wall'))} | ${ms(perTrial(normal, 'cpu'))} | ${ms(overhead)} |`,
      );
      console.log(
        `| PostgreSQL, durability full (synchronous_commit on) | ${ms(perTrial(full, 'wall'))} | ${ms(perTrial(full, 'cpu'))} | ${ms(overheadFull)} |`,
      );
      console.log(
        `\nstore overhead per trial (commit included), default durability: ${ms(overhead)} — target <= 1 ms: ${overhead <= 1 ? 'met' : 'NOT met'}`,
      );
      console.log(
        `one appendRecord alone (nothing else in flight): normal median ${ms(latency.median)}, p95 ${ms(latency.p95)}; full median ${ms(latencyFull.median)}, p95 ${ms(latencyFull.p95)}`,
      );
    }
  } finally {
    await stopCluster(clusterDir);
    rmSync(dir, { recursive: true, force: true });
    rmSync(clusterDir, { recursive: true, force: true });
  }
}

await main();
