// Model gateway overhead (issue 13): per call, time to first token, and 16 concurrent streams, on
// loopback. Run: npx tsdown && npm run bench:gateway
// An upstream on 127.0.0.1 streams an Anthropic Messages answer of ~2 kB (message_start at once, the
// first text delta after FIRST_TOKEN_MS, 15 more as long after it); a keep-alive HTTP client calls it directly
// through a bare Node pass-through proxy (the cost of one more hop) and through the built library's
// Gateway (forwarding, recording every call), in interleaved rounds.
// Everything runs in this one process (the hops are in bench/gateway-hops.ts), so the CPU time per
// call over a direct call is the hop's; BENCH_HOPS=process runs each hop in a child process of its
// own instead (its CPU per request then is its process's; the wall figures then also hold the
// wake-ups of three processes, which a loaded machine stretches).
import { createServer, Agent as HttpAgent, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { childHop, type Hop, type HopKind, inlineHop } from './gateway-hops.ts';

const INLINE = process.env['BENCH_HOPS'] !== 'process';
const CALLS = Number(process.env['BENCH_CALLS'] ?? 2000);
const STREAMS = 16;
const PER_STREAM = Number(process.env['BENCH_PER_STREAM'] ?? 100);
const FIRST_TOKEN_MS = 5;
const DELTAS = 16;

const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

/** The answer's events: ~2 kB in all; the caller's stream number sets its id and usage. */
function answer(stream: number): { head: string; deltas: string[]; tail: string } {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const message = {
    id: `msg_${stream}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [],
    usage: { input_tokens: 1000 + stream, output_tokens: 1 },
  };
  const text = 'the quick brown fox jumps over the lazy dog, twice. ';
  return {
    head:
      ev('message_start', { message }) +
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    deltas: Array.from({ length: DELTAS }, () =>
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    ),
    tail:
      ev('content_block_stop', { index: 0 }) +
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 10 + stream } }) +
      ev('message_stop', {}),
  };
}

async function startUpstream(): Promise<{
  url: string;
  close(): void;
  bytes: number;
  connections(): number;
}> {
  const sample = answer(0);
  const bytes = sample.head.length + sample.deltas.join('').length + sample.tail.length;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const stream = Number(/stream (\d+)/.exec(raw)?.[1] ?? 0);
      const { head, deltas, tail } = answer(stream);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(head);
      // The first token after FIRST_TOKEN_MS, the rest as many ms later.
      setTimeout(() => {
        res.write(deltas[0]);
        setTimeout(() => {
          for (const d of deltas.slice(1)) res.write(d);
          res.end(tail);
        }, FIRST_TOKEN_MS);
      }, FIRST_TOKEN_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes,
    connections: () => connections,
    close: () => server.close(),
  };
}

interface Timing {
  readonly firstToken: number;
  readonly total: number;
}

const agent = new HttpAgent({ keepAlive: true, maxSockets: 64 });

/** One streamed call: ms to the first text delta and to the end of the body. */
function call(base: string, key: string, stream: number): Promise<Timing> {
  const body = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    stream: true,
    messages: [{ role: 'user', content: `stream ${stream}` }],
  });
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/v1/messages`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': body.length },
      },
      (res: IncomingMessage) => {
        let firstToken = 0;
        res.on('data', (chunk: Buffer) => {
          if (firstToken === 0 && chunk.includes('content_block_delta')) firstToken = performance.now() - t0;
        });
        res.on('end', () => resolve({ firstToken, total: performance.now() - t0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

const SIDES = ['direct', 'bare', 'gateway'] as const;
type Side = (typeof SIDES)[number];

const startHop = (kind: HopKind, upstream: string): Promise<Hop> =>
  INLINE ? inlineHop(kind, upstream, agent) : childHop(kind, upstream);

/** CALLS rounds of one call on each side, in a rotating order so a noisy moment hits all alike. */
async function sequential(upstream: string) {
  const gateway = await startHop('gateway', upstream);
  const bare = await startHop('bare', upstream);
  const route = await gateway.openRoute();
  const base: Record<Side, string> = { direct: upstream, bare: bare.url, gateway: route.baseUrl };
  const key: Record<Side, string> = { direct: 'sk-bench', bare: 'sk-bench', gateway: route.key };
  const timings: Record<Side, Timing[]> = { direct: [], bare: [], gateway: [] };
  const cpu: Record<Side, number> = { direct: 0, bare: 0, gateway: 0 };
  const WARM_UP = 200;
  const round = async (i: number, measured: boolean) => {
    for (let k = 0; k < SIDES.length; k++) {
      const side = SIDES[(i + k) % SIDES.length] as Side;
      const c0 = process.cpuUsage();
      const t = await call(base[side], key[side], 0);
      if (!measured) continue;
      timings[side].push(t);
      cpu[side] += cpuMs(c0);
    }
  };
  for (let i = 0; i < WARM_UP; i++) await round(i, false);
  const hopCpu0 = { gateway: await gateway.cpu(), bare: await bare.cpu() };
  for (let i = 0; i < CALLS; i++) await round(i, true);
  // In a process of its own, each hop's CPU per request (µs); inline, this process's over direct.
  const perCall = async (side: 'gateway' | 'bare', hop: Hop, before: number) =>
    INLINE ? ((cpu[side] - cpu.direct) / CALLS) * 1000 : ((await hop.cpu()) - before) / CALLS;
  const hopCpu = {
    gateway: await perCall('gateway', gateway, hopCpu0.gateway),
    bare: await perCall('bare', bare, hopCpu0.bare),
  };
  const calls = await gateway.closeRoute(route.id);
  await gateway.close();
  await bare.close();
  const recorded = calls.length === WARM_UP + CALLS && calls.every((c) => c.status === 200);
  const p50 = (side: Side, pick: (t: Timing) => number) => quantile(timings[side].map(pick), 0.5);
  /** The paired differences against direct, at quantile q. */
  const added = (side: Side, pick: (t: Timing) => number, q: number) =>
    quantile(
      timings.direct.map((d, i) => pick(timings[side][i] as Timing) - pick(d)),
      q,
    );
  const total = (t: Timing) => t.total;
  const first = (t: Timing) => t.firstToken;
  return {
    direct_p50: p50('direct', total),
    bare_p50: p50('bare', total),
    gateway_p50: p50('gateway', total),
    overhead_p50: added('gateway', total, 0.5),
    overhead_p90: added('gateway', total, 0.9),
    bare_overhead_p50: added('bare', total, 0.5),
    ttft_direct_p50: p50('direct', first),
    ttft_gateway_p50: p50('gateway', first),
    ttft_added_p50: added('gateway', first, 0.5),
    ttft_added_p90: added('gateway', first, 0.9),
    bare_ttft_added_p50: added('bare', first, 0.5),
    gateway_cpu_us: hopCpu.gateway,
    bare_cpu_us: hopCpu.bare,
    recorded,
  };
}

/** STREAMS routes at once, each PER_STREAM calls in a row; direct, then through the gateway. */
async function concurrent(upstream: string) {
  const gateway = await startHop('gateway', upstream);
  const streams = Array.from({ length: STREAMS }, (_, i) => i);
  const wave = async (target: (s: number) => { base: string; key: string }) => {
    const t0 = performance.now();
    const timings = await Promise.all(
      streams.map(async (s) => {
        const { base, key } = target(s);
        const out: Timing[] = [];
        for (let i = 0; i < PER_STREAM; i++) out.push(await call(base, key, s));
        return out;
      }),
    );
    return { wall: performance.now() - t0, timings: timings.flat() };
  };
  const direct = await wave(() => ({ base: upstream, key: 'sk-bench' }));
  const routes = await Promise.all(streams.map(() => gateway.openRoute()));
  const through = await wave((s) => ({ base: routes[s]?.baseUrl ?? '', key: routes[s]?.key ?? '' }));
  // Attribution: every route holds exactly its own stream's calls (id and usage encode the stream).
  let misattributed = 0;
  for (const s of streams) {
    const calls = await gateway.closeRoute(routes[s]?.id ?? '');
    if (calls.length !== PER_STREAM) misattributed += Math.abs(PER_STREAM - calls.length);
    for (const c of calls)
      if (
        c.response_id !== `msg_${s}` ||
        c.usage.input_tokens !== 1000 + s ||
        c.usage.output_tokens !== 10 + s
      )
        misattributed++;
  }
  await gateway.close();
  const p50 = (w: typeof direct, pick: (t: Timing) => number) => quantile(w.timings.map(pick), 0.5);
  return {
    direct_p50: p50(direct, (t) => t.total),
    through_p50: p50(through, (t) => t.total),
    ttft_direct_p50: p50(direct, (t) => t.firstToken),
    ttft_through_p50: p50(through, (t) => t.firstToken),
    direct_wall: direct.wall,
    through_wall: through.wall,
    misattributed,
  };
}

const upstream = await startUpstream();
const seq = await sequential(upstream.url);
const conc = await concurrent(upstream.url);
upstream.close();
agent.destroy();

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `gateway bench: ${new Date().toISOString()}, ${cpus().length} x ${cpu}, Node ${process.version}, ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
console.log(`answer: ${upstream.bytes} bytes of SSE, first text delta after ${FIRST_TOKEN_MS} ms`);
console.log(
  INLINE
    ? "hops in this process: CPU per request is this process's per call over a direct call"
    : "each hop in a child process of its own: CPU is that process's per request",
);
console.log(
  `\n${CALLS} sequential rounds, one call each: direct, through a bare Node proxy, through the gateway`,
);
console.log(
  `  whole call p50: direct ${ms(seq.direct_p50)}, bare proxy ${ms(seq.bare_p50)}, gateway ${ms(seq.gateway_p50)}`,
);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(
  `  gateway overhead per call (paired with direct): p50 ${ms(seq.overhead_p50)}, p90 ${ms(seq.overhead_p90)}` +
    ` (bare proxy p50 ${ms(seq.bare_overhead_p50)})   target p50 <= 1 ms: ${verdict(seq.overhead_p50 <= 1)}`,
);
console.log(
  `  time to first token p50: direct ${ms(seq.ttft_direct_p50)}, gateway ${ms(seq.ttft_gateway_p50)}`,
);
console.log(
  `  TTFT added (paired): p50 ${ms(seq.ttft_added_p50)}, p90 ${ms(seq.ttft_added_p90)}` +
    ` (bare proxy p50 ${ms(seq.bare_ttft_added_p50)})   target <= 2 ms: ${verdict(seq.ttft_added_p50 <= 2)}`,
);
const us = (x: number) => `${x.toFixed(0)} µs`;
console.log(
  `  CPU per request: gateway ${us(seq.gateway_cpu_us)}, bare proxy ${us(seq.bare_cpu_us)}; ` +
    `the gateway's own (over a bare hop) ${us(seq.gateway_cpu_us - seq.bare_cpu_us)}`,
);
console.log(
  `  gateway's own wall share (overhead p50 minus bare proxy's) ${ms(seq.overhead_p50 - seq.bare_overhead_p50)}; ` +
    `every gateway call recorded: ${seq.recorded}`,
);
console.log(`\n${STREAMS} concurrent streams x ${PER_STREAM} calls each:`);
console.log(`  whole call p50: direct ${ms(conc.direct_p50)}, gateway ${ms(conc.through_p50)}`);
console.log(
  `  time to first token p50: direct ${ms(conc.ttft_direct_p50)}, gateway ${ms(conc.ttft_through_p50)}`,
);
console.log(`  wall: direct ${conc.direct_wall.toFixed(0)} ms, gateway ${conc.through_wall.toFixed(0)} ms`);
console.log(`  calls attributed to the wrong route or missing: ${conc.misattributed}`);
console.log(`upstream connections opened: ${upstream.connections()}`);
console.log(JSON.stringify({ sequential: seq, concurrent: conc }));
if (!seq.recorded || conc.misattributed > 0) process.exitCode = 1;
