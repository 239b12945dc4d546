import { existsSync } from 'node:fs';
import { cp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer } from '../helpers/openai-compatible-server.ts';
import {
  agentCheckout,
  agentRuns,
  exportedExperiment,
  mostAtOnce,
  useQueueWorkers,
} from '../helpers/queue-workers.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// Backpressure and fairness through the built CLI (`npx tsdown` first): `run --queue` with
// --max-in-flight, --priority, --tags, --judge and --keep-workspaces, and a harness's `rate_limits`,
// each with two real `worker` processes on a real PostgreSQL (test/helpers/postgres.ts).
const FAIR_AGENT = join(ROOT, 'test/fixtures/queue/fair-agent.mjs');
const JUDGED = join(ROOT, 'test/fixtures/queue/judged');
const TEST_TIMEOUT_MS = 180_000;

const queue = useQueueWorkers('harnesseval-queue-fair-');

let checkouts = 0;
/** A checkout holding the fair-agent harness, with one suite per `suites` entry (name → inputs). */
async function checkout(suites: Record<string, string[]>): Promise<{ dir: string; marks: string }> {
  checkouts += 1;
  const tasks = Object.fromEntries(
    Object.entries(suites).map(([name, inputs]) => [name, inputs.map((input) => ({ input }))]),
  );
  return agentCheckout(join(queue.root, `checkout-${checkouts}`), FAIR_AGENT, tasks);
}

/** `run FILE --queue URL ARGS --detach`: the experiment id. */
async function enqueue(dir: string, file: string, args: string[] = []): Promise<string> {
  const queued = await cli(['run', file, '--queue', queue.url, ...args, '--detach'], dir);
  expect(queued.stderr).not.toMatch(/\n\s+at /);
  expect(queued.status).toBe(0);
  return queued.stdout.trim();
}

async function watch(dir: string, id: string): Promise<void> {
  const watched = await cli(['runs', '--store', queue.url, 'watch', id], dir);
  expect(watched.stdout).toContain(`experiment ${id} completed`);
  expect(watched.status).toBe(0);
}

const labels = (prefix: string, n: number, sleepMs: number, calls = 0) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i} ${sleepMs} ${calls}`);

describe('run --queue: backpressure and fairness over several workers', () => {
  it(
    '--max-in-flight 2: never more than two trials of the experiment at once over two workers of -j 4',
    async () => {
      const { dir, marks } = await checkout({ limited: labels('m', 10, 150) });
      const id = await enqueue(dir, 'evals/limited.yaml', ['--max-in-flight', '2']);
      const env = { QUEUE_MARKS: marks };
      const workers = [queue.pool.start(dir, { jobs: 4, env }), queue.pool.start(dir, { jobs: 4, env })];
      await watch(dir, id);
      const runs = await agentRuns(marks);
      expect(runs).toHaveLength(10);
      expect(mostAtOnce(runs)).toBeLessThanOrEqual(2);
      expect((await exportedExperiment(queue.url, dir, id)).records.map((r) => r.outcome)).toEqual(
        Array(10).fill('pass'),
      );
      for (const w of workers) expect(await queue.pool.stop(w)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '--priority: the higher-priority experiment, queued second, runs first',
    async () => {
      const { dir, marks } = await checkout({ low: labels('low', 6, 0), high: labels('high', 6, 0) });
      const low = await enqueue(dir, 'evals/low.yaml');
      const high = await enqueue(dir, 'evals/high.yaml', ['--priority', '5']);
      const env = { QUEUE_MARKS: marks };
      const workers = [queue.pool.start(dir, { jobs: 1, env }), queue.pool.start(dir, { jobs: 1, env })];
      await watch(dir, low);
      await watch(dir, high);
      const runs = await agentRuns(marks);
      expect(runs).toHaveLength(12);
      // Every high job is taken before any low one; by the time the agents start, at most the other
      // worker (one trial at a time) can be one low trial ahead of the last high one.
      const lastHigh = Math.max(...runs.filter((r) => r.label.startsWith('high')).map((r) => r.start));
      expect(runs.filter((r) => r.label.startsWith('low') && r.start < lastHigh).length).toBeLessThanOrEqual(
        1,
      );
      for (const w of workers) expect(await queue.pool.stop(w)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '--tags gpu: only the worker started with --tags gpu takes the tagged experiment; the other takes the rest',
    async () => {
      const { dir, marks } = await checkout({ gpu: labels('gpu', 6, 20), any: labels('any', 6, 20) });
      const tagged = await enqueue(dir, 'evals/gpu.yaml', ['--tags', 'gpu']);
      const plain = await enqueue(dir, 'evals/any.yaml');
      const env = { QUEUE_MARKS: marks };
      const untagged = queue.pool.start(dir, { jobs: 2, env });
      const gpu = queue.pool.start(dir, { jobs: 2, tags: 'gpu,linux', env });
      await watch(dir, tagged);
      await watch(dir, plain);
      const records = (await exportedExperiment(queue.url, dir, tagged)).records;
      expect(records).toHaveLength(6);
      expect(new Set(records.map((r) => r.metadata.worker?.pid))).toEqual(new Set([gpu.child.pid]));
      expect((await exportedExperiment(queue.url, dir, plain)).records).toHaveLength(6);
      expect(untagged.stderr()).not.toContain(tagged);
      expect(await queue.pool.stop(untagged)).toBe(0);
      expect(await queue.pool.stop(gpu)).toBe(0);
      // A tag list is checked when given: the worker refuses a malformed one.
      const bad = await cli(['worker', '--queue', queue.url, '--tags', 'gpu,no spaces'], dir);
      expect(bad.stderr).toContain('--tags takes comma-separated tags');
      expect(bad.status).toBe(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'rate_limits: 3 requests per second over two workers of -j 4: no second of the upstream sees a fourth call',
    async () => {
      const arrivals: number[] = [];
      const upstream: Server = createServer((req, res) => {
        arrivals.push(Date.now());
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: `msg_${arrivals.length}`,
              type: 'message',
              role: 'assistant',
              model: 'claude-test',
              content: [{ type: 'text', text: 'ok' }],
              stop_reason: 'end_turn',
              usage: { input_tokens: 1, output_tokens: 1 },
            }),
          );
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      try {
        const port = (upstream.address() as AddressInfo).port;
        const { dir, marks } = await checkout({ limited: labels('r', 6, 0, 2) });
        await writeFile(
          join(dir, 'evals', 'harness.yaml'),
          `name: rate-agent\nversion: 1.0.0\nadapter: cli\noptions:\n  command: node\n  args: ["./fair-agent.mjs"]\n  inherit_env: [QUEUE_MARKS]\ngateway:\n  upstream: http://127.0.0.1:${port}\nrate_limits:\n  anthropic: { requests_per_second: 3 }\n`,
        );
        const id = await enqueue(dir, 'evals/limited.yaml', ['--harness', 'evals/harness.yaml']);
        const env = { QUEUE_MARKS: marks };
        const workers = [queue.pool.start(dir, { jobs: 4, env }), queue.pool.start(dir, { jobs: 4, env })];
        await watch(dir, id);
        expect(arrivals).toHaveLength(12);
        arrivals.sort((a, b) => a - b);
        // The gateways admit at most 3 calls in any second (by the database's clock); each call then
        // takes its own hop to the upstream, so arrivals are compared with a margin for that hop.
        // Unlimited, the 8 trial slots would send their first 8 calls at once.
        const spans = arrivals.slice(3).map((at, i) => at - (arrivals[i] ?? 0));
        expect(Math.min(...spans)).toBeGreaterThanOrEqual(500);
        expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(2_700);
        const records = (await exportedExperiment(queue.url, dir, id)).records;
        expect(records.map((r) => r.outcome)).toEqual(Array(6).fill('pass'));
        expect(new Set(records.map((r) => r.metadata.worker?.pid)).size).toBeGreaterThanOrEqual(1);
        for (const w of workers) expect(await queue.pool.stop(w)).toBe(0);
      } finally {
        await new Promise<void>((resolve) => upstream.close(() => resolve()));
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'rate_limits without gateway: is refused at load, located in the harness file',
    async () => {
      const { dir } = await checkout({ one: labels('x', 1, 0) });
      await writeFile(
        join(dir, 'evals', 'harness.yaml'),
        'name: no-gateway\nversion: 1.0.0\nadapter: cli\noptions:\n  command: node\n  args: ["./fair-agent.mjs"]\nrate_limits:\n  anthropic: { requests_per_minute: 50 }\n',
      );
      const r = await cli(['run', 'evals/one.yaml', '--harness', 'evals/harness.yaml', '--no-store'], dir);
      expect(r.stderr).toMatch(/harness\.yaml:\d+:\d+: rate_limits: .*add gateway:/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.status).toBe(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '--judge and --keep-workspaces given to run --queue reach every worker',
    async () => {
      const judge = await startOpenAICompatibleServer(() => '{"rationale": "clear", "level": 4}');
      const dir = join(queue.root, 'judged');
      await cp(JUDGED, join(dir, 'evals'), { recursive: true });
      let kept: string[] = [];
      try {
        const id = await enqueue(dir, 'evals/suite.yaml', [
          '--harness',
          'evals/harness.yaml',
          '--epochs',
          '4',
          '--judge',
          `openai-compatible:queue-judge@${judge.baseURL}`,
          '--keep-workspaces',
        ]);
        const workers = [queue.pool.start(dir, { jobs: 1 }), queue.pool.start(dir, { jobs: 1 })];
        await watch(dir, id);
        const records = (await exportedExperiment(queue.url, dir, id)).records;
        kept = records.flatMap((r) => (r.workspace === undefined ? [] : [r.workspace]));
        expect(records).toHaveLength(4);
        for (const record of records) {
          expect(record.criteria.find((c) => c.id === 'ac-02')).toMatchObject({
            status: 'passed',
            grades: [{ grader: 'openai-compatible:queue-judge', level: 4 }],
          });
          expect(record.workspace).toBeDefined();
          expect(existsSync(join(record.workspace ?? '', 'NOTES.md'))).toBe(true);
        }
        expect(judge.requests.map((q) => q.model)).toEqual(Array(4).fill('queue-judge'));
        for (const w of workers) expect(await queue.pool.stop(w)).toBe(0);
      } finally {
        await judge.close();
        for (const path of kept) await rm(path, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
