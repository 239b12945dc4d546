/**
 * The support-desk MCP server: tickets, orders, refunds and a policy document for evaluating
 * customer-support harnesses (suites/support). See ./README.md.
 *
 *   node --import tsx examples/support-desk/server.ts --state state/desk.json   # stdio, one desk
 *   node --import tsx examples/support-desk/server.ts --http --port 0 --state-dir state/  # HTTP
 *
 * State is isolated per process over stdio and per MCP session over HTTP: each starts from the
 * seed data (`--data`, default ./data) and nobody else sees its changes.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_DATA_DIR, Desk, loadDeskData } from './desk.ts';
import type { DeskData, DeskState } from './desk-schema.ts';
import { stateWriter } from './state-file.ts';
import { createSupportDeskServer } from './tools.ts';

/** HTTP sessions kept at once; a client that never closes its sessions cannot grow memory forever. */
const MAX_SESSIONS = 64;

async function serveStdio(data: DeskData, policyText: string, stateFile: string | undefined): Promise<void> {
  const desk = new Desk(data, policyText);
  const write = stateWriter(stateFile);
  write(desk.snapshot());
  const server = createSupportDeskServer(desk, write);
  process.stdin.on('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  await server.connect(new StdioServerTransport());
}

interface HttpOptions {
  readonly data: DeskData;
  readonly policyText: string;
  readonly port: number;
  readonly stateDir: string | undefined;
}

/** Stateful streamable HTTP: an `initialize` opens a session with its own desk. */
async function serveHttp(options: HttpOptions): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size >= MAX_SESSIONS) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('too many open sessions\n');
      return;
    }
    const desk = new Desk(options.data, options.policyText);
    let write: (state: DeskState) => void = () => {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        if (options.stateDir !== undefined) write = stateWriter(join(options.stateDir, `${id}.json`));
        write(desk.snapshot());
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = createSupportDeskServer(desk, (state) => write(state));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: use /mcp\n');
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (existing !== undefined) {
      await existing.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST' || sessionId !== undefined) {
      res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'text/plain' });
      res.end(sessionId === undefined ? 'no session: send initialize first\n' : 'unknown session\n');
      return;
    }
    const body = await readJson(req);
    if (!isInitializeRequest(body)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('no session: send initialize first\n');
      return;
    }
    await openSession(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`support-desk: request failed: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('bad request\n');
    });
  });
  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(options.port, '127.0.0.1', () => done());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`);
  const stop = (): void => {
    for (const transport of sessions.values()) void transport.close();
    http.close(() => process.exit(0));
    http.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The JSON body of a request, at most 1 MB. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new Error('request body over 1 MB');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function usage(message: string): never {
  process.stderr.write(
    `support-desk: ${message}\n` +
      'usage: server.ts [--data DIR] [--state FILE] | --http [--port N] [--data DIR] [--state-dir DIR]\n',
  );
  process.exit(2);
}

export async function main(argv: readonly string[]): Promise<void> {
  let values: { http?: boolean; port?: string; data?: string; state?: string; 'state-dir'?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        http: { type: 'boolean' },
        port: { type: 'string' },
        data: { type: 'string' },
        state: { type: 'string' },
        'state-dir': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const { data, policyText } = await loadDeskData(resolve(values.data ?? DEFAULT_DATA_DIR));
  if (!values.http) {
    if (values.port !== undefined || values['state-dir'] !== undefined)
      usage('--port and --state-dir need --http');
    await serveStdio(data, policyText, values.state === undefined ? undefined : resolve(values.state));
    return;
  }
  if (values.state !== undefined) usage('over --http each session has its own state: use --state-dir');
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage(`bad --port ${values.port}`);
  const stateDir = values['state-dir'] === undefined ? undefined : resolve(values['state-dir']);
  await serveHttp({ data, policyText, port, stateDir });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`support-desk: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
