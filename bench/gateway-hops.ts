// The two hops bench/gateway.ts puts between its client and its upstream: a bare Node
// pass-through proxy and the built library's Gateway. Each runs in its own child process (as the
// gateway does in use: the harness is another process) with BENCH_HOPS=process, so its CPU per
// request is its own; by default in the bench's process.
import { type ChildProcess, fork } from 'node:child_process';
import { createServer, Agent as HttpAgent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type HopKind = 'bare' | 'gateway';

/** A route's recorded calls, as the bench checks them. */
export interface RecordedCall {
  readonly status: number;
  readonly response_id?: string;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
}

export interface Hop {
  readonly url: string;
  /** A gateway route (the bare proxy has one route: itself, with the upstream's key). */
  openRoute(): Promise<{ id: string; baseUrl: string; key: string }>;
  closeRoute(id: string): Promise<RecordedCall[]>;
  /** CPU microseconds the hop's process has used so far. */
  cpu(): Promise<number>;
  close(): Promise<void>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const usedCpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** The least one more HTTP hop in Node costs: no parsing, no records. */
async function bareProxy(upstream: string, agent: HttpAgent): Promise<Hop> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(out);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openRoute: async () => ({ id: 'bare', baseUrl: url, key: 'sk-bench' }),
    closeRoute: async () => [],
    cpu: async () => usedCpu(),
    close: async () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

async function gatewayHop(upstream: string): Promise<Hop> {
  const lib = await import(join(root, 'dist/index.js'));
  const gateway = await lib.Gateway.start({
    upstream: { kind: 'forward', target: { baseUrl: new URL(upstream), apiKey: 'sk-bench', label: 'up' } },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the built library's GatewayRoute
  const routes = new Map<string, any>();
  return {
    url: gateway.url,
    openRoute: async () => {
      const route = gateway.openRoute();
      routes.set(route.id, route);
      return { id: route.id, baseUrl: route.baseUrl, key: route.key };
    },
    closeRoute: async (id) => {
      const calls = await gateway.closeRoute(routes.get(id));
      routes.delete(id);
      return calls;
    },
    cpu: async () => usedCpu(),
    close: () => gateway.close(),
  };
}

/** A hop in this process. */
export function inlineHop(kind: HopKind, upstream: string, agent: HttpAgent): Promise<Hop> {
  return kind === 'bare' ? bareProxy(upstream, agent) : gatewayHop(upstream);
}

type Reply = { n: number; value: unknown };

/** A hop in a child process of its own, driven over IPC (outside the measured calls). */
export async function childHop(kind: HopKind, upstream: string): Promise<Hop> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--hop', kind, upstream], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (value: unknown) => void>();
  let next = 0;
  let ready: (url: string) => void = () => {};
  const started = new Promise<string>((resolve) => {
    ready = resolve;
  });
  child.on('message', (m: { url?: string } & Partial<Reply>) => {
    if (m.url !== undefined) ready(m.url);
    else if (m.n !== undefined) {
      waiting.get(m.n)?.(m.value);
      waiting.delete(m.n);
    }
  });
  const ask = <T>(op: string, arg?: string): Promise<T> =>
    new Promise((resolve) => {
      const n = next++;
      waiting.set(n, resolve as (value: unknown) => void);
      child.send({ n, op, arg });
    });
  const url = await started;
  return {
    url,
    openRoute: () => ask('open'),
    closeRoute: (id) => ask('close', id),
    cpu: () => ask('cpu'),
    close: async () => {
      await ask('end');
      child.disconnect();
    },
  };
}

/** The child's side: start the hop, answer the parent's requests. */
async function serveHop(kind: HopKind, upstream: string): Promise<void> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const hop = await inlineHop(kind, upstream, agent);
  process.on('message', async (m: { n: number; op: string; arg?: string }) => {
    const ops: Record<string, () => Promise<unknown>> = {
      open: () => hop.openRoute(),
      close: () => hop.closeRoute(m.arg ?? ''),
      cpu: () => hop.cpu(),
      end: async () => {
        await hop.close();
        agent.destroy();
      },
    };
    process.send?.({ n: m.n, value: await ops[m.op]?.() });
  });
  process.send?.({ url: hop.url });
}

if (process.argv[2] === '--hop') await serveHop(process.argv[3] as HopKind, process.argv[4] ?? '');
