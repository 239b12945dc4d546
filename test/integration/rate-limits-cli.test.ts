import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/run-cli.ts';

// A harness's `rate_limits` in a local run (no queue), through the built CLI (`npx tsdown` first):
// the gateway's limiter in this process spaces the model calls of every trial of the run.
const FAIR_AGENT = join(ROOT, 'test/fixtures/queue/fair-agent.mjs');

let dir = '';
let upstream: Server;
/** When each model call reached the upstream (ms), as the upstream recorded it. */
const arrivals: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-rate-limits-'));
  upstream = createServer((req, res) => {
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
});
afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('rate_limits in a local run', () => {
  it('2 requests per second at -j 4: no second of the upstream sees a third call', async () => {
    const port = (upstream.address() as AddressInfo).port;
    const marks = join(dir, 'marks');
    await mkdir(marks);
    await copyFile(FAIR_AGENT, join(dir, 'fair-agent.mjs'));
    // Four trials of two model calls each: unlimited, the four slots would send four calls at once.
    const tests = [0, 1, 2, 3].map((i) => `  - id: t${i}\n    input: "r${i} 0 2"\n`).join('');
    await writeFile(join(dir, 'suite.yaml'), `version: "1.0"\nname: limited\ntests:\n${tests}`);
    await writeFile(
      join(dir, 'harness.yaml'),
      `name: rate-agent\nversion: 1.0.0\nadapter: cli\noptions:\n  command: node\n  args: ["./fair-agent.mjs"]\n  inherit_env: [QUEUE_MARKS]\ngateway:\n  upstream: http://127.0.0.1:${port}\nrate_limits:\n  anthropic: { requests_per_second: 2 }\n`,
    );
    const run = await cli(
      ['run', 'suite.yaml', '--harness', 'harness.yaml', '-j', '4', '--no-store', '--no-progress'],
      dir,
      { QUEUE_MARKS: marks },
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toContain('4/4 passed');
    expect(run.status).toBe(0);
    expect(arrivals).toHaveLength(8);
    arrivals.sort((a, b) => a - b);
    // The limiter admits at most 2 calls in any second; each call then takes its own hop to the
    // upstream, so the arrivals two apart are compared with a margin for that hop.
    const spans = arrivals.slice(2).map((at, i) => at - (arrivals[i] ?? 0));
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(500);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(2_500);
  }, 120_000);
});
