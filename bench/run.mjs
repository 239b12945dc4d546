#!/usr/bin/env node
// Runner overhead, efficiency and memory of `harnesseval run` (issue 3, part 10). Run: npm run bench:run
// Each scenario runs `runExperiment` from the built library (`npx tsdown` first) in a fresh child
// process, so its peak RSS is its own; the HTTP echo server lives in this (parent) process.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { echoSuite, runChild } from './scenario-child.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TRIALS = Number(process.env.BENCH_TRIALS ?? 10_000);
const CONCURRENCY = 16;
const DELAY_MS = 50;
// BENCH_EPOCHS=100 runs TRIALS / 100 tasks 100 times each: the same trial count with a small suite.
const EPOCHS = Number(process.env.BENCH_EPOCHS ?? 1);

// Imported (for `table`) it does nothing. BENCH_CLI=1 measures the built CLI instead (see cliBench).
if (process.argv[2] === '--child') {
  const scenario = JSON.parse(process.argv[3]);
  await (scenario.floor === true ? floorChild(scenario) : child(scenario));
} else if (process.argv[1] === fileURLToPath(import.meta.url))
  await (process.env.BENCH_CLI === '1' ? cliBench() : parent());

/**
 * The whole `harnesseval run` process (start-up, trials, metrics, the console summary and, with
 * `BENCH_CLI_OUT=1` (default), the -o out.json report) with a SQLite store, for each trial count
 * in BENCH_CLI_TRIALS (tasks x BENCH_EPOCHS, default 100): wall, CPU and peak RSS, which a preload
 * reads at exit (the CLI is a child process). `BENCH_CLI_AGENT=http` calls the HTTP echo server in
 * this process instead of the in-process echo; `BENCH_CLI_DELAY=50` makes the agent answer after
 * 50 ms, and then efficiency is N x delay / 16 over the whole process's wall time. With a delay a
 * floor row comes first: a bare client of the same agent (16 loops of `await`, no HarnessEval).
 */
async function cliBench() {
  const counts = (process.env.BENCH_CLI_TRIALS ?? '10000,100000').split(',').map(Number);
  const epochs = Number(process.env.BENCH_EPOCHS ?? 100);
  const agent = process.env.BENCH_CLI_AGENT ?? 'function';
  const delay = Number(process.env.BENCH_CLI_DELAY ?? 0);
  const out = process.env.BENCH_CLI_OUT !== '0';
  const server = agent === 'http' ? await echoServer() : undefined;
  const url = server === undefined ? '' : `http://127.0.0.1:${server.address().port}/echo?delay=${delay}`;
  const rows = [];
  try {
    for (const trials of counts) {
      if (delay > 0) {
        const load = loadavg()[0];
        const floor = await runChild(fileURLToPath(import.meta.url), {
          floor: true,
          agent,
          delay,
          trials,
          url,
        });
        rows.push({ trials, load, floor: true, ...floor });
        console.error(`${trials} trials, bare ${agent} client: ${JSON.stringify(rows.at(-1))}`);
      }
      rows.push(await cliRun({ trials, epochs, agent, delay, url, out }));
      console.error(`${trials} trials: ${JSON.stringify(rows.at(-1))}`);
    }
  } finally {
    server?.close();
  }
  const what = agent === 'http' ? 'HTTP echo on 127.0.0.1' : 'in-process echo';
  console.log(
    `\nharnesseval run (built CLI), ${what}${delay > 0 ? ` answering after ${delay} ms` : ''}, SQLite store, -j ${CONCURRENCY}, ${epochs} epochs${out ? ', -o out.json' : ''}; ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC`,
  );
  console.log('| trials | process | wall | CPU | efficiency | peak RSS | out.json | load avg |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const efficiency = delay > 0 ? ((r.trials * delay) / CONCURRENCY / r.wall).toFixed(3) : '-';
    const size = r.size === undefined ? '-' : `${(r.size / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `| ${r.trials} | ${r.floor ? `bare ${agent} client` : 'harnesseval run'} | ${(r.wall / 1000).toFixed(2)} s | ${(r.cpu / 1000).toFixed(2)} s | ${efficiency} | ${r.rss.toFixed(0)} MB | ${size} | ${r.load.toFixed(1)} |`,
    );
  }
}

/** One whole `harnesseval run` in a fresh process. */
async function cliRun({ trials, epochs, agent, delay, url, out }) {
  const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-cli-'));
  try {
    writeFileSync(join(dir, 'suite.json'), echoSuite('bench-echo', trials / epochs));
    writeFileSync(
      join(dir, 'echo.mjs'),
      `export function echo(input) {\n  return ${delay > 0 ? `new Promise((resolve) => setTimeout(() => resolve(input), ${delay}))` : 'input'};\n}\n`,
    );
    writeFileSync(
      join(dir, 'harness.yaml'),
      agent === 'http'
        ? `name: echo\nversion: 1.0.0\nadapter: http\noptions:\n  url: ${JSON.stringify(url)}\n  output_path: $.output\n`
        : 'name: echo\nversion: 1.0.0\nadapter: function\noptions:\n  module: ./echo.mjs#echo\n',
    );
    writeFileSync(
      join(dir, 'measure.mjs'),
      `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const cpu = process.cpuUsage();
  writeFileSync(${JSON.stringify(join(dir, 'measure.json'))}, JSON.stringify({ rss: process.resourceUsage().maxRSS / 1024, cpu: (cpu.user + cpu.system) / 1000 }));
});\n`,
    );
    const load = loadavg()[0];
    const t0 = performance.now();
    const args = [
      'run',
      'suite.json',
      '--harness',
      'harness.yaml',
      '--store',
      'runs.db',
      '-j',
      String(CONCURRENCY),
    ];
    args.push('--epochs', String(epochs), '--no-progress', ...(out ? ['-o', 'out.json'] : []));
    const status = await new Promise((resolve, reject) => {
      const p = spawn(
        process.execPath,
        ['--import', join(dir, 'measure.mjs'), join(root, 'bin/harnesseval.js'), ...args],
        {
          cwd: dir,
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      p.on('error', reject);
      p.on('close', resolve);
    });
    const wall = performance.now() - t0;
    if (status !== 0) throw new Error(`harnesseval run exited ${status}`);
    const m = JSON.parse(readFileSync(join(dir, 'measure.json'), 'utf8'));
    if (!out) return { trials, wall, load, ...m };
    const written = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).records.length;
    if (written !== trials) throw new Error(`out.json holds ${written} of ${trials} records`);
    return { trials, wall, load, size: statSync(join(dir, 'out.json')).size, ...m };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The floor of the efficiency figure: the same agent called by a bare client, 16 loops of one
 * awaited call each (a kept-alive node:http pool, or the in-process echo's timer), nothing else.
 */
async function floorChild({ agent, delay, trials, url }) {
  const { request, Agent } = await import('node:http');
  const pool = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const call =
    agent === 'http'
      ? (i) =>
          new Promise((resolve, reject) => {
            const body = JSON.stringify({ input: `hello ${i}` });
            const req = request(
              url,
              { method: 'POST', agent: pool, headers: { 'content-type': 'application/json' } },
              (res) => {
                let text = '';
                res.setEncoding('utf8');
                res.on('data', (c) => {
                  text += c;
                });
                res.on('end', () => resolve(JSON.parse(text)));
              },
            );
            req.on('error', reject);
            req.end(body);
          })
      : () => new Promise((resolve) => setTimeout(resolve, delay));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < trials) await call(next++);
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage();
  pool.destroy();
  process.stdout.write(
    `${JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1000, rss: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}

/** The HTTP echo agent: answers `{output: input}` after `?delay=` ms. */
async function echoServer() {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const delay = Number(new URL(req.url, 'http://x').searchParams.get('delay'));
      const reply = () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ output: JSON.parse(body).input }));
      };
      if (delay > 0) setTimeout(reply, delay);
      else reply();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** One scenario: builds the suite, runs it, prints one JSON line of measurements. */
async function child({ dir, agent, delay, store, url }) {
  const { loadSuite, openStore, runExperiment } = await import(join(root, 'dist/index.js'));
  const suite = await loadSuite(join(dir, 'suite.json'));
  const harness =
    agent === 'function'
      ? {
          schema_version: 1,
          name: 'echo',
          version: '1.0.0',
          adapter: 'function',
          agents: [],
          metadata: {},
          options: { module: join(dir, 'echo.mjs#echo'), options: { delay_ms: delay } },
        }
      : {
          schema_version: 1,
          name: 'echo',
          version: '1.0.0',
          adapter: 'http',
          agents: [],
          metadata: {},
          options: { url: `${url}?delay=${delay}`, output_path: '$.output' },
        };
  const db = store ? await openStore(join(dir, `store-${agent}-${delay}.db`)) : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // The trial phase ends with the last trial; after it come metrics (bootstrap intervals) and the summary.
  let trialsEnd = { wall: 0, cpu: cpu0 };
  let last = { done: 0, passed: 0 };
  // Records stream (`keepRecords: false`): the run holds what its metrics need, as `run` does.
  await runExperiment({
    keepRecords: false,
    onEvent: (event) => {
      if (event.type !== 'trial_end') return;
      last = event.progress;
      if (event.progress.done === event.progress.total)
        trialsEnd = { wall: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
    },
    suite,
    harness,
    harnessBaseDir: dir,
    ...(db ? { store: db } : {}),
    settings: { concurrency: CONCURRENCY, timeout_seconds: 60, epochs: EPOCHS },
  });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await db?.close();
  process.stdout.write(
    `${JSON.stringify({
      wall,
      cpu: (cpu.user + cpu.system) / 1000,
      trialWall: trialsEnd.wall,
      trialCpu: (trialsEnd.cpu.user + trialsEnd.cpu.system) / 1000,
      rss: process.resourceUsage().maxRSS / 1024,
      trials: last.done,
      passed: last.passed,
    })}\n`,
  );
}

async function parent() {
  const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-run-'));
  writeFileSync(join(dir, 'suite.json'), echoSuite('bench-echo', TRIALS / EPOCHS));
  writeFileSync(
    join(dir, 'echo.mjs'),
    `export function echo(input, ctx) {
  const delay = ctx.options.delay_ms;
  return delay > 0 ? new Promise((resolve) => setTimeout(() => resolve(input), delay)) : input;
}\n`,
  );
  const server = await echoServer();
  const url = `http://127.0.0.1:${server.address().port}/echo`;

  const rows = [];
  try {
    for (const agent of (process.env.BENCH_AGENTS ?? 'function,http').split(','))
      for (const delay of (process.env.BENCH_DELAYS ?? `0,${DELAY_MS}`).split(',').map(Number))
        for (const store of (process.env.BENCH_STORES ?? 'sqlite,none')
          .split(',')
          .map((s) => s === 'sqlite')) {
          const load = loadavg()[0];
          const m = await runChild(fileURLToPath(import.meta.url), { dir, agent, delay, store, url });
          if (m.trials !== TRIALS || m.passed !== TRIALS)
            throw new Error(`${agent}: ${m.passed}/${m.trials} passed`);
          rows.push({ agent, delay, store, load, ...m });
          console.error(`${agent} delay=${delay} store=${store}: ${JSON.stringify(m)}`);
        }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(
    `\n${TRIALS} trials (${TRIALS / EPOCHS} tasks x ${EPOCHS} epochs), -j ${CONCURRENCY}; ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
  );
  console.log(table(rows));
}

/**
 * One row per scenario. "Trials" is the trial phase (first trial to last record); the metrics
 * (bootstrap intervals over 10,000 trials) come after it and are in the total. For a zero-delay
 * agent the wall per trial is the harness overhead; with a delay, efficiency is the ideal
 * N x delay / concurrency over the wall time.
 */
export function table(rows) {
  const ms = (x) => `${x.toFixed(3)} ms`;
  const s = (x) => `${(x / 1000).toFixed(2)} s`;
  const lines = [
    '| agent | delay | store | wall (total) | trials: wall/trial | trials: CPU/trial | metrics after | efficiency (trials / total) | peak RSS | load avg |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const ideal = (r.trials * r.delay) / CONCURRENCY;
    const efficiency =
      r.delay > 0 ? `${(ideal / r.trialWall).toFixed(3)} / ${(ideal / r.wall).toFixed(3)}` : '-';
    lines.push(
      `| ${r.agent === 'function' ? 'in-process function' : 'HTTP 127.0.0.1'} | ${r.delay} ms | ${r.store ? 'SQLite' : '--no-store'} | ${s(r.wall)} | ${ms(r.trialWall / r.trials)} | ${ms(r.trialCpu / r.trials)} | ${s(r.wall - r.trialWall)} (CPU ${s(r.cpu - r.trialCpu)}) | ${efficiency} | ${r.rss.toFixed(0)} MB | ${r.load.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}
