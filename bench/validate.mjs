#!/usr/bin/env node
// Start-up and throughput of `harnesseval validate` (issue 2, part 8). Run: npm run bench:validate
// Cold runs: every run is a fresh process, as a user's shell would start it.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const dataset = [
  'examples/hello-world/datasets/hello-world-v0.jsonl',
  'test/fixtures/seeds/hello-world-v0.jsonl',
]
  .map((p) => join(root, p))
  .find((p) => existsSync(p));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// CPU time (user + system, from /usr/bin/time) is reported beside wall time: on a shared,
// loaded machine wall time mostly measures the wait for a core.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function time(cmd, args, runs = RUNS) {
  const ms = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const r = TIME
      ? spawnSync(TIME, ['-f', 'CPU %U %S', cmd, ...args], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
        })
      : spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    const m = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
    if (m) cpu.push((Number(m[1]) + Number(m[2])) * 1000);
  }
  return {
    median: median(ms),
    min: Math.min(...ms),
    max: Math.max(...ms),
    runs,
    cpu: cpu.length ? median(cpu) : NaN,
  };
}

async function writeDataset(path, n) {
  const out = createWriteStream(path);
  const types = ['exact', 'regex', 'jsonpath'];
  const expected = { exact: 'Hello, Alice!', regex: '^Hello,\\s+Bob', jsonpath: '$.greeting' };
  for (let i = 0; i < n; i++) {
    const t = types[i % 3];
    const line = `{"schema_version":"v0","case_id":"case-${i}","prompt":"Greet person ${i}","tool_name":"hello_world","expected_output_type":"${t}","expected_output":${JSON.stringify(expected[t])},"difficulty":"easy","provenance":{"author":"bench","source_type":"synthetic"},"version":1,"tags":["bench"]}\n`;
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
}

const bin = join(root, 'bin/harnesseval.js');
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${new Date().toISOString()}`,
);
console.log(`dataset: ${dataset}`);
const nodeBaseline = time(process.execPath, ['-e', '0']);
const validate = time(process.execPath, [bin, 'validate', dataset]);
const npx = time(
  'npx',
  ['--no-install', 'harnesseval', 'validate', dataset],
  Math.max(3, Math.min(RUNS, 10)),
);
const ratio = validate.median / nodeBaseline.median;
const f = (r) =>
  `median ${r.median.toFixed(0)} ms (min ${r.min.toFixed(0)}, max ${r.max.toFixed(0)}, ${r.runs} runs; CPU ${r.cpu.toFixed(0)} ms)`;
console.log(`node -e 0                          ${f(nodeBaseline)}`);
console.log(`node bin/harnesseval.js validate   ${f(validate)}  = ${ratio.toFixed(2)}x node -e 0`);
console.log(`npx harnesseval validate           ${f(npx)}`);
console.log(
  `target: <= 150 ms and <= 3x node -e 0: ${validate.median <= 150 && ratio <= 3 ? 'met' : 'NOT met'}`,
);
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

const N = Number(process.env.BENCH_CASES ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'harnesseval-bench-'));
try {
  const big = join(dir, 'big.jsonl');
  await writeDataset(big, N);
  // Peak RSS measured in the child itself (process.resourceUsage().maxRSS is in KiB).
  const probe = `const { validateFile } = await import(${JSON.stringify(join(root, 'dist/index.js'))});
const t0 = performance.now(); const c0 = process.cpuUsage(); const r = await validateFile(${JSON.stringify(big)});
const ms = performance.now() - t0; const c = process.cpuUsage(c0); const cpuMs = (c.user + c.system) / 1000;
console.log(JSON.stringify({ count: r.count, errors: r.diagnostics.length, ms, cpuMs, maxRssKiB: process.resourceUsage().maxRSS }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const m = JSON.parse(r.stdout.trim().split('\n').pop());
  const rate = m.count / (m.ms / 1000);
  const rss = m.maxRssKiB / 1024;
  console.log(
    `stream ${N} cases: ${m.count} valid, ${m.errors} errors in ${m.ms.toFixed(0)} ms wall = ${Math.round(rate)} cases/s ` +
      `(${m.cpuMs.toFixed(0)} ms CPU = ${Math.round(m.count / (m.cpuMs / 1000))} cases per CPU-second), peak RSS ${rss.toFixed(0)} MB`,
  );
  console.log(
    `target: >= 100000 cases/s and <= 150 MB: ${rate >= 100_000 && rss <= 150 ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
