// Queue workers' throughput (issue 15, Speed): a 50 ms HTTP agent, 1 / 2 / 4 `harnesseval worker`
// processes x `-j 16` against a throw-away PostgreSQL. Run: npx tsdown && npm run bench:workers
// Each round starts its workers, lets them connect, then runs `harnesseval run suite.json --queue`
// (it plans, enqueues one job per trial and follows until the last record lands) and reads the
// records back: throughput over the span from the first trial's start to the last one's end, and
// efficiency against the ideal N x 50 ms / (workers x 16). Beside each round, the same minute, a
// reference: the same N requests from `workers` bare Node processes x 16 loops of `http.request`
// (no queue, no store, no runner): what this machine and this agent allow at all.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCluster, stopCluster } from '../test/helpers/postgres-cluster.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/harnesseval.js');
const TRIALS = Number(process.env['BENCH_TRIALS'] ?? 4000);
const WORKERS = (process.env['BENCH_WORKERS'] ?? '1,2,4').split(',').map(Number);
const CONCURRENCY = 16;
const DELAY_MS = 50;
/** `BENCH_PROFILE=DIR`: each worker writes a V8 CPU profile there (node --cpu-prof) when it stops. */
const PROFILE_DIR = process.env['BENCH_PROFILE'];
/**
 * `BENCH_WARMUP=N`: before the measured run, the round's workers run an N-trial experiment of
 * another suite (same agent) to its end. A worker is a long-lived process: its trial code is then
 * compiled by V8 and its pools are open, as in a worker that has run experiments before. The
 * measured run's own costs stay in: opening its experiment (the suite load) and finishing it.
 */
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 0);
/** `BENCH_WORKER_NODE_ARGS="--max-semi-space-size=64"`: Node options for the workers only (space-separated). */
const WORKER_NODE_ARGS = (process.env['BENCH_WORKER_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
/**
 * Workers connect as this role, so pg_stat_statements (per role) counts their statements apart
 * from the coordinator's: every statement, BEGIN and COMMIT included, is one round trip.
 */
const WORKER_ROLE = 'bench_worker';

// biome-ignore lint/suspicious/noExplicitAny: the built library, loaded at run time
type Library = any;

/** The 50 ms agent: answers `{ output: input }` 50 ms after the request's body arrives. */
async function startAgent(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () =>
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ output: JSON.parse(body).input }));
      }, DELAY_MS),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/agent`, close: () => server.close() };
}

/** /proc/PID/stat's fields after the command (field 3, the state, is [0]); [] when it is gone. */
function statFields(pid: number | undefined): string[] {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  } catch {
    return [];
  }
}

function cpuSeconds(pid: number | undefined, withChildren = false): number {
  // utime + stime (+ the reaped children's cutime + cstime), in clock ticks (100 a second on Linux).
  const f = statFields(pid);
  if (f.length === 0) return Number.NaN;
  const children = withChildren ? Number(f[13]) + Number(f[14]) : 0;
  return (Number(f[11]) + Number(f[12]) + children) / 100;
}

/**
 * The PostgreSQL server's CPU so far: the postmaster and its live children (backends, WAL writer,
 * checkpointer…), plus the children it has reaped (a closed connection's backend).
 */
function serverCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let sum = cpuSeconds(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (Number(f[1]) === postmaster) sum += (Number(f[11]) + Number(f[12])) / 100;
  }
  return sum;
}

/** The machine's busy CPU seconds so far, every core and process (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.split(/\s+/).slice(1).map(Number) ?? [];
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / 100;
}

/** This process's CPU seconds so far: the agent server (and the bench's own bookkeeping). */
function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/**
 * The reference: `processes` bare Node processes, each `CONCURRENCY` loops of `http.request` to
 * the agent (keep-alive, the body JSON-parsed), `TRIALS` requests in all. Its efficiency is the
 * ceiling for the workers': the agent's 50 ms, the client's and the agent's own CPU, nothing else.
 */
async function bareClients(agentUrl: string, processes: number) {
  const script = `
    import http from 'node:http';
    const [url, n, j] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
    const agent = new http.Agent({ keepAlive: true });
    let next = 0; let first = Infinity; let last = 0;
    const call = (i) => new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let body = ''; res.setEncoding('utf8'); res.on('data', (c) => { body += c; });
        res.on('end', () => { JSON.parse(body); resolve(); });
      });
      req.on('error', reject); req.end(JSON.stringify({ input: 'hello ' + i }));
    });
    await Promise.all(Array.from({ length: j }, async () => {
      while (next < n) { const i = next++; const t0 = Date.now(); await call(i); first = Math.min(first, t0); last = Math.max(last, Date.now()); }
    }));
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ first, last, cpu: (cpu.user + cpu.system) / 1e6 }));
  `;
  const own0 = ownCpuSeconds();
  const busy0 = machineBusySeconds();
  const share = Math.ceil(TRIALS / processes);
  const results = await Promise.all(
    Array.from({ length: processes }, (_, i) => {
      const n = Math.min(share, TRIALS - i * share);
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', script, agentUrl, String(n), String(CONCURRENCY)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
      });
      return new Promise<{ first: number; last: number; cpu: number }>((resolve, reject) =>
        child.on('close', (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client ${code}`)),
        ),
      );
    }),
  );
  const span = Math.max(...results.map((r) => r.last)) - Math.min(...results.map((r) => r.first));
  return {
    span,
    clientCpu: results.reduce((sum, r) => sum + r.cpu, 0),
    agentCpu: ownCpuSeconds() - own0,
    machineBusy: machineBusySeconds() - busy0,
  };
}

/** `harnesseval ARGS` in `dir`: its stderr, wall ms and CPU seconds (sampled: to within 100 ms). */
function runCli(
  dir: string,
  args: readonly string[],
): Promise<{ stderr: string; wall: number; cpu: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  // It shares the cores with the workers: its CPU as last seen.
  let cpu = 0;
  const sampler = setInterval(() => {
    const seen = cpuSeconds(child.pid);
    if (Number.isFinite(seen)) cpu = seen;
  }, 100);
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`harnesseval ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ stderr, wall: performance.now() - t0, cpu });
    });
  });
}

/** `harnesseval run SUITE --queue URL`, followed to the end; its experiment id, wall ms and CPU. */
async function runQueued(
  dir: string,
  url: string,
  suite = 'suite.json',
): Promise<{ id: string; wall: number; cpu: number }> {
  const { stderr, wall, cpu } = await runCli(dir, ['run', suite, '--queue', url, '--no-progress']);
  const id = /queued \d+ trials of experiment (\S+)/.exec(stderr)?.[1];
  if (id === undefined) throw new Error(`run --queue named no experiment: ${stderr}`);
  return { id, wall, cpu };
}

interface TrialTimes {
  readonly timestamp: string;
  readonly duration_seconds: number;
  readonly outcome: string;
}

/** From the first trial's start to the last one's end, in ms; throws unless every trial passed. */
function trialSpan(records: readonly TrialTimes[]): number {
  if (records.length !== TRIALS || records.some((r) => r.outcome !== 'pass'))
    throw new Error(`${records.filter((r) => r.outcome === 'pass').length}/${records.length} passed`);
  const starts = records.map((r) => Date.parse(r.timestamp));
  const ends = records.map((r) => Date.parse(r.timestamp) + r.duration_seconds * 1000);
  return Math.max(...ends) - Math.min(...starts);
}

/**
 * The same suite and agent run by `harnesseval run -j 16` into a SQLite file, no queue, the same
 * minute as the rounds: the local runner's efficiency and CPU per trial (its whole process:
 * start-up, the trials, the metrics) beside one worker's.
 */
async function localRun(lib: Library, dir: string) {
  const db = join(dir, `local-${Date.now()}.db`);
  const load = loadavg()[0] ?? 0;
  const { cpu } = await runCli(dir, [
    'run',
    'suite.json',
    '--store',
    db,
    '-j',
    String(CONCURRENCY),
    '--no-progress',
  ]);
  const store = await lib.openStore(db);
  const [summary] = await store.listExperiments();
  const experiment = await store.getExperiment(summary.id);
  await store.close();
  const span = trialSpan(experiment.records);
  return {
    load,
    efficiency: (TRIALS * DELAY_MS) / CONCURRENCY / span,
    throughput: TRIALS / (span / 1000),
    cpuPerTrialMs: (cpu * 1000) / TRIALS,
  };
}

/** The workers' statements since the last reset, in all and the most frequent ones. */
async function workerStatements(admin: pg.Client): Promise<{ total: number; top: string[] }> {
  const { rows } = await admin.query(
    `SELECT s.calls::integer AS calls, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 110) AS query
     FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
     WHERE r.rolname = $1 AND s.toplevel AND s.query NOT LIKE '%FROM ONLY%FOR KEY SHARE%' ORDER BY s.calls DESC`,
    [WORKER_ROLE],
  );
  const total = rows.reduce((sum: number, row: { calls: number }) => sum + row.calls, 0);
  return {
    total,
    top: rows.slice(0, 12).map((row: { calls: number; query: string }) => `${row.calls} ${row.query}`),
  };
}

async function round(lib: Library, dir: string, urls: Urls, admin: pg.Client, workers: number) {
  const reference = await bareClients(urls.agent, workers);
  const started: ChildProcess[] = [];
  const node = [
    ...WORKER_NODE_ARGS,
    ...(PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`]),
  ];
  for (let i = 0; i < workers; i++)
    started.push(
      spawn(process.execPath, [...node, BIN, 'worker', '--queue', urls.worker, '-j', String(CONCURRENCY)], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
  const closed = started.map((w) => new Promise((resolve) => w.once('close', resolve)));
  // Connected and polling before the trials are queued: the figure is the queue's, not start-up's.
  await sleep(3000);
  const gone = started.filter((w) => w.exitCode !== null || w.signalCode !== null);
  if (gone.length > 0) {
    for (const w of started) w.kill('SIGKILL');
    throw new Error(`${gone.length} worker(s) exited before the run (their stderr is above)`);
  }
  if (WARMUP > 0) await runQueued(dir, urls.coordinator, 'warmup.json');
  const load = loadavg()[0] ?? 0;
  const cpu0 = started.map((w) => cpuSeconds(w.pid));
  await admin.query('SELECT pg_stat_statements_reset()');
  const server0 = serverCpuSeconds(urls.dataDir);
  const own0 = ownCpuSeconds();
  const busy0 = machineBusySeconds();
  const { id, wall, cpu: coordinatorCpu } = await runQueued(dir, urls.coordinator);
  const cpu = started.reduce((sum, w, i) => sum + cpuSeconds(w.pid) - (cpu0[i] ?? 0), 0);
  const serverCpu = serverCpuSeconds(urls.dataDir) - server0;
  const agentCpu = ownCpuSeconds() - own0;
  const machineBusy = machineBusySeconds() - busy0;
  // Idle polling (an empty take every 500 ms a slot) before and after the run is counted too.
  const statements = await workerStatements(admin);
  console.error(
    `${workers} worker(s), the workers' most frequent statements:\n  ${statements.top.join('\n  ')}`,
  );
  for (const w of started) w.kill('SIGTERM');
  await Promise.all(closed);
  const store = await lib.openStore(urls.coordinator);
  const experiment = await store.getExperiment(id);
  await store.close();
  const records: TrialTimes[] = experiment.records;
  const span = trialSpan(records);
  const ideal = (TRIALS * DELAY_MS) / (workers * CONCURRENCY);
  const perTrial = (seconds: number) => (seconds * 1000) / TRIALS;
  return {
    workers,
    load,
    wall,
    span,
    ideal,
    throughput: TRIALS / (span / 1000),
    cpu,
    coordinatorCpu,
    cpuPerTrialMs: perTrial(cpu),
    roundTripsPerTrial: statements.total / TRIALS,
    // The trial as the runner timed it (the agent's 50 ms and the HTTP call around it).
    meanTrialMs: (records.reduce((sum, r) => sum + r.duration_seconds, 0) * 1000) / TRIALS,
    serverCpuPerTrialMs: perTrial(serverCpu),
    agentCpuPerTrialMs: perTrial(agentCpu),
    // Every process of the round on the machine: workers, PostgreSQL, the agent, the coordinator.
    totalCpuPerTrialMs: perTrial(cpu + serverCpu + agentCpu + coordinatorCpu),
    machineBusyCores: machineBusy / (wall / 1000),
    reference: {
      efficiency: ideal / reference.span,
      throughput: TRIALS / (reference.span / 1000),
      cpuPerTrialMs: perTrial(reference.clientCpu + reference.agentCpu),
      machineBusyCores: reference.machineBusy / (reference.span / 1000),
    },
  };
}

interface Urls {
  readonly coordinator: string;
  readonly worker: string;
  readonly agent: string;
  /** The cluster's data folder (its postmaster.pid). */
  readonly dataDir: string;
}

async function main() {
  const lib: Library = await import(join(root, 'dist/index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-workers-'));
  const clusterDir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-workers-pg-'));
  const agent = await startAgent();
  try {
    const tests = Array.from({ length: TRIALS }, (_, i) => ({
      id: `t${i}`,
      input: `hello ${i}`,
      expected: `hello ${i}`,
    }));
    const suite = {
      version: '1.0',
      name: 'bench-workers',
      agent: { adapter: 'http', url: agent.url, output_path: '$.output' },
      tests,
    };
    writeFileSync(join(dir, 'suite.json'), JSON.stringify(suite));
    const warmup = tests.slice(0, WARMUP).map((test) => ({ ...test, id: `w${test.id}` }));
    writeFileSync(
      join(dir, 'warmup.json'),
      JSON.stringify({ ...suite, name: 'bench-warmup', tests: warmup }),
    );
    const cluster = await startCluster({
      dir: clusterDir,
      durable: true,
      settings: ['shared_preload_libraries=pg_stat_statements'],
    });
    const urls: Urls = {
      coordinator: cluster.adminUrl,
      worker: `postgres://${WORKER_ROLE}:bench@127.0.0.1:${cluster.port}/postgres`,
      agent: agent.url,
      dataDir: join(clusterDir, 'pg', 'data'),
    };
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await admin.query(`CREATE ROLE ${WORKER_ROLE} LOGIN SUPERUSER PASSWORD 'bench'`);
    const local = await localRun(lib, dir);
    console.error(`local run: ${JSON.stringify(local)}`);
    const rows = [];
    for (const workers of WORKERS) {
      const r = await round(lib, dir, urls, admin, workers);
      rows.push(r);
      console.error(`${workers} worker(s): ${JSON.stringify(r)}`);
    }
    await admin.end();
    const base = rows[0];
    console.log(
      `\n${TRIALS} trials of a ${DELAY_MS} ms HTTP agent, -j ${CONCURRENCY} per worker${WORKER_NODE_ARGS.length > 0 ? ` (workers: node ${WORKER_NODE_ARGS.join(' ')})` : ''}${WARMUP > 0 ? `, workers warmed by a ${WARMUP}-trial experiment first` : ''}; ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC`,
    );
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    console.log(
      '| workers | load avg (1 min) | trial span | ideal | efficiency | trials/s | scaling vs 1 | mean trial | `run --queue` wall | workers CPU | CPU per trial | round trips per trial | PostgreSQL CPU per trial | agent CPU per trial | all CPU per trial | machine busy (cores) | `run --queue` CPU |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const r of rows)
      console.log(
        `| ${r.workers} | ${r.load.toFixed(1)} | ${(r.span / 1000).toFixed(2)} s | ${(r.ideal / 1000).toFixed(2)} s | ${(r.ideal / r.span).toFixed(2)} | ${r.throughput.toFixed(0)} | ${base ? (r.throughput / base.throughput / (r.workers / base.workers)).toFixed(2) : '-'} | ${ms(r.meanTrialMs)} | ${(r.wall / 1000).toFixed(2)} s | ${r.cpu.toFixed(1)} s | ${ms(r.cpuPerTrialMs)} | ${r.roundTripsPerTrial.toFixed(2)} | ${ms(r.serverCpuPerTrialMs)} | ${ms(r.agentCpuPerTrialMs)} | ${ms(r.totalCpuPerTrialMs)} | ${r.machineBusyCores.toFixed(2)} | ${r.coordinatorCpu.toFixed(1)} s |`,
      );
    console.log(
      `\nReference, the same minute: the same ${TRIALS} requests from \`workers\` bare Node processes x ${CONCURRENCY} loops of http.request (no queue, store or runner).\n| processes | efficiency | requests/s | scaling vs 1 | client + agent CPU per request | machine busy (cores) |\n| --- | --- | --- | --- | --- | --- |`,
    );
    for (const r of rows)
      console.log(
        `| ${r.workers} | ${r.reference.efficiency.toFixed(2)} | ${r.reference.throughput.toFixed(0)} | ${base ? (r.reference.throughput / base.reference.throughput / (r.workers / base.workers)).toFixed(2) : '-'} | ${ms(r.reference.cpuPerTrialMs)} | ${r.reference.machineBusyCores.toFixed(2)} |`,
      );
    console.log(
      `\nThe local runner, the same minute (load ${local.load.toFixed(1)}): \`harnesseval run suite.json -j ${CONCURRENCY} --store local.db\` (SQLite, no queue) on the same agent: efficiency ${local.efficiency.toFixed(2)}, ${local.throughput.toFixed(0)} trials/s, ${ms(local.cpuPerTrialMs)} of CPU per trial (the whole process).`,
    );
  } finally {
    agent.close();
    await stopCluster(clusterDir);
    rmSync(dir, { recursive: true, force: true });
    rmSync(clusterDir, { recursive: true, force: true });
  }
}

await main();
