import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { replyFor, type Script, turnsOf, waitUnlessAborted } from './scripted-agent.ts';

/** A scripted agent served over HTTP on the loopback interface. */
export interface ScriptedHttpAgent {
  /** `http://127.0.0.1:PORT/` — POST `{"input": ...}` (the http adapter's default body). */
  readonly url: string;
  /**
   * The options of an `http` adapter that reads everything the server answers with: the output,
   * tool calls, usage, and the agent calls as events.
   */
  readonly adapterOptions: {
    readonly url: string;
    readonly output_path: string;
    readonly tool_calls_path: string;
    readonly usage_path: string;
    readonly events_path: string;
  };
  /** How many requests it has answered or is answering. */
  requests(): number;
  /** Stops the server and drops open connections (a hung reply included). */
  close(): Promise<void>;
}

/** The largest request body read (the input of one trial). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

async function readInput(request: IncomingMessage): Promise<TaskInput> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) throw new Error(`the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  const input = typeof body === 'object' && body !== null && 'input' in body ? body.input : body;
  return typeof input === 'string' || (typeof input === 'object' && input !== null)
    ? (input as TaskInput)
    : JSON.stringify(input);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** The status a scripted error is served with: its own, or 503 (`transient`) or 422 (any other kind). */
function statusOf(error: { readonly kind?: string; readonly status?: number }): number {
  return error.status ?? (error.kind === 'transient' ? 503 : 422);
}

async function answer(script: Script, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const gone = new AbortController();
  // The client gave up (its trial timed out or was aborted): a hung reply ends with it.
  response.on('close', () => gone.abort(new Error('the client closed the connection')));
  let input: TaskInput;
  try {
    input = await readInput(request);
  } catch (error) {
    send(response, 400, { error: `not a JSON request: ${errorMessage(error)}` });
    return;
  }
  const reply = replyFor(script, input);
  const wait = reply.hang === true ? Number.POSITIVE_INFINITY : (reply.delayMs ?? 0);
  if (!(await waitUnlessAborted(wait, gone.signal))) return;
  if (reply.throws !== undefined) {
    // A crash of the service: the connection ends without a response.
    request.socket.destroy();
    return;
  }
  if (reply.error !== undefined) {
    const error = typeof reply.error === 'string' ? { message: reply.error } : reply.error;
    send(response, statusOf(error), { error: error.message });
    return;
  }
  const { calls, tools } = turnsOf(reply);
  send(response, 200, {
    output: reply.output ?? '',
    tool_calls: tools,
    usage: {
      tokens_in: calls.reduce((s, c) => s + c.tokens_in, 0),
      tokens_out: calls.reduce((s, c) => s + c.tokens_out, 0),
      cached_tokens: calls.reduce((s, c) => s + c.cached_tokens, 0),
      cost_usd: calls.some((c) => c.cost_usd !== undefined)
        ? calls.reduce((s, c) => s + (c.cost_usd ?? 0), 0)
        : null,
    },
    events: calls.map((call) => ({ type: 'agent_call', ...call })),
  });
}

/**
 * Serves a script (see `scriptedAgent`) over HTTP on 127.0.0.1 and a free port, for tests of an
 * HTTP adapter or a suite without a real service: a reply's `error` is an HTTP error response (its
 * `status`, else 503 for `transient` and 422 for other kinds), `throws` drops the connection
 * without a response, `hang` never answers (until the client gives up).
 *
 * @example
 * const server = await startScriptedHttpAgent({ answers: { Ada: { output: 'Hello, Ada!' } } });
 * const harness = { adapter: 'http', options: server.adapterOptions };
 * // ... run a suite against it, then:
 * await server.close();
 */
export async function startScriptedHttpAgent(
  script: Script,
  options: { readonly host?: string; readonly port?: number } = {},
): Promise<ScriptedHttpAgent> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    answer(script, request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { error: errorMessage(error) });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return {
    url,
    adapterOptions: {
      url,
      output_path: '$.output',
      tool_calls_path: '$.tool_calls',
      usage_path: '$.usage',
      events_path: '$.events',
    },
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
