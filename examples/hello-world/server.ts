/**
 * The hello-world MCP server: one tool, `hello_world` {name} -> `Hello, NAME!` plus
 * structuredContent {greeting, name, timestamp, truncated}. See ./README.md and ./greeting.ts.
 *
 *   node --import tsx examples/hello-world/server.ts                 # stdio (default)
 *   node --import tsx examples/hello-world/server.ts --http --port 0 # streamable HTTP on 127.0.0.1
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { GreetingSchema, greet } from './greeting.ts';

export const SERVER_NAME = 'hello-world';
export const SERVER_VERSION = '1.0.0';

/** A fresh server with the `hello_world` tool registered. */
export function createHelloWorldServer(): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  server.registerTool(
    'hello_world',
    {
      title: 'Hello, world',
      description:
        'Greets a person by name. Returns "Hello, NAME!" ("Hello!" for an empty name); names are ' +
        'NFC-normalised, trimmed and cut to 64 code points (then `truncated` is true).',
      inputSchema: { name: z.string().describe('Who to greet; any text, returned verbatim') },
      outputSchema: GreetingSchema.shape,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ name }) => {
      const structuredContent = greet(name);
      return { content: [{ type: 'text', text: structuredContent.greeting }], structuredContent };
    },
  );
  return server;
}

async function serveStdio(): Promise<void> {
  const server = createHelloWorldServer();
  // When the client goes away (stdin closes) there is nobody left to greet.
  process.stdin.on('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  await server.connect(new StdioServerTransport());
}

/** Stateless streamable HTTP: every POST gets its own server and transport, as the SDK advises. */
async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/mcp') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: use /mcp\n');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('method not allowed\n');
    return;
  }
  const server = createHelloWorldServer();
  // No session id generator: a stateless server, one transport per request.
  const transport = new StreamableHTTPServerTransport({});
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

async function serveHttp(port: number): Promise<void> {
  const http = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      process.stderr.write(`hello-world: request failed: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const chosen = typeof address === 'object' && address !== null ? address.port : port;
  process.stderr.write(`listening on http://127.0.0.1:${chosen}/mcp\n`);
  const stop = (): void => {
    http.close(() => process.exit(0));
    http.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function usage(message: string): never {
  process.stderr.write(`hello-world: ${message}\nusage: server.ts [--http [--port N]]\n`);
  process.exit(2);
}

export async function main(argv: readonly string[]): Promise<void> {
  let values: { http?: boolean; port?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { http: { type: 'boolean' }, port: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (!values.http) {
    if (values.port !== undefined) usage('--port needs --http');
    await serveStdio();
    return;
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage(`bad --port ${values.port}`);
  await serveHttp(port);
}

// Run only when executed directly, so tests can import createHelloWorldServer.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`hello-world: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
