// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the header template syntax under test.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpAdapter } from '../../../src/adapters/http.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { environment, trialContext } from './trial-context.ts';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const received: Received[] = [];
let server: Server;
let base = '';

/** A loopback server whose route names the behaviour under test. */
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const json = (status: number, value: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(value));
      };
      switch (request.url) {
        case '/echo':
          return json(200, {
            result: { text: `echo: ${JSON.parse(body).prompt}` },
            request: JSON.parse(body),
            calls: [{ tool_name: 'hello_world', args: { name: 'Ada' } }],
            usage: { tokens_in: 5, tokens_out: 2 },
          });
        case '/number':
          return json(200, { value: 42 });
        case '/events':
          return json(200, {
            answer: 'done',
            events: [
              { type: 'agent_call', role: 'planner', model: 'gpt-4o', tokens_in: 10, tokens_out: 3 },
              { type: 'human', action: 'approve', kind: 'planned', minutes: 2 },
              { type: 'tool_call', tool_name: 'search' },
              { type: 'nonsense' },
            ],
          });
        case '/text':
          response.writeHead(200, { 'content-type': 'text/plain' });
          return response.end('plain answer');
        case '/bad-json':
          response.writeHead(200, { 'content-type': 'application/json' });
          return response.end('{"unterminated": ');
        case '/404':
          response.writeHead(404, { 'content-type': 'text/plain' });
          return response.end(`${'x'.repeat(5000)}not here`);
        case '/429':
          return json(429, { error: 'slow down' });
        case '/500':
          return json(500, { error: 'upstream exploded' });
        case '/slow':
          setTimeout(() => json(200, { late: true }), 10_000).unref();
          return;
        case '/huge': {
          response.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(1024 * 1024, 'a');
          let sent = 0;
          const pump = (): void => {
            while (sent < 11 && response.write(chunk)) sent += 1;
            if (sent >= 11) response.end();
            else response.once('drain', pump);
          };
          pump();
          return;
        }
        case '/reset':
          request.socket.destroy();
          return;
        default:
          return json(200, { ok: true });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function portOf(listening: Server): number {
  const address = listening.address();
  if (typeof address !== 'object' || address === null) throw new Error('server is not listening on TCP');
  return address.port;
}

async function agentFor(options: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<AgentV1> {
  return httpAdapter.create(httpAdapter.options.parse(options), environment('http', env));
}

describe('http adapter', () => {
  it('reads the harness events a service puts in its response (events_path)', async () => {
    const agent = await agentFor({ url: `${base}/events`, output_path: '$.answer', events_path: '$.events' });
    const out = await agent.run('go', trialContext());
    expect(out.output).toBe('done');
    expect(out.trace?.agent_calls).toEqual([expect.objectContaining({ role: 'planner', tokens_in: 10 })]);
    expect(out.trace?.human).toEqual([expect.objectContaining({ action: 'approve', minutes: 2 })]);
    expect(out.tool_calls.map((t) => t.tool_name)).toEqual(['search']);
    expect(out.trace?.malformed_events).toEqual([{ line: 4, error: expect.stringContaining('type') }]);
  });

  it('posts the filled body template and selects the output with output_path', async () => {
    const agent = await agentFor({
      url: `${base}/echo`,
      body: { prompt: '{{input}}', meta: { raw: 'say {{input}}' }, n: 1 },
      output_path: '$.result.text',
      tool_calls_path: '$.calls',
      usage_path: '$.usage',
    });
    const result = await agent.run('Ada', trialContext());
    expect(result.error).toBeUndefined();
    expect(result.output).toBe('echo: Ada');
    expect(result.tool_calls).toEqual([
      { tool_name: 'hello_world', args: { name: 'Ada' }, status: 'success' },
    ]);
    expect(result.usage).toMatchObject({ tokens_in: 5, tokens_out: 2 });
    expect(result.metadata).toMatchObject({ status: 200 });
    const last = received.at(-1);
    expect(JSON.parse(last?.body ?? '')).toEqual({ prompt: 'Ada', meta: { raw: 'say Ada' }, n: 1 });
    expect(last?.headers['x-harnesseval-trial']).toBe('case-1#0');
    expect(last?.headers['content-type']).toBe('application/json');
  });

  it('inserts an object input as an object and returns the whole body without output_path', async () => {
    const agent = await agentFor({ url: `${base}/echo`, body: { prompt: '{{input}}' } });
    const result = await agent.run({ tool: 'hello_world', arguments: { name: 'Bo' } }, trialContext());
    expect(result.output).toMatchObject({
      request: { prompt: { tool: 'hello_world', arguments: { name: 'Bo' } } },
    });
  });

  it('keeps a JSON number as text with the structured value', async () => {
    const result = await (await agentFor({ url: `${base}/number`, output_path: '$.value' })).run(
      'q',
      trialContext(),
    );
    expect(result).toMatchObject({ output: '42', structured: 42 });
  });

  it("requests the URL's path and query, with its user info as basic authorization", async () => {
    const url = `${base.replace('://', '://ada:pa%20ss@')}/any/path?x=1&y=%20#fragment`;
    const result = await (await agentFor({ url, output_path: '$.ok' })).run('q', trialContext());
    expect(result.structured).toBe(true);
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      url: '/any/path?x=1&y=%20',
      headers: { authorization: `Basic ${Buffer.from('ada:pa ss').toString('base64')}` },
    });
  });

  it('returns a text body as text', async () => {
    const result = await (await agentFor({ url: `${base}/text`, method: 'GET' })).run('q', trialContext());
    expect(result.output).toBe('plain answer');
    expect(received.at(-1)?.method).toBe('GET');
  });

  it.each([
    ['/echo', { output_path: '$.missing' }, /output_path "\$\.missing" matched nothing/],
    [
      '/text',
      { output_path: '$.x' },
      /output_path is set but the response is not JSON \(content-type: text\/plain\)/,
    ],
    ['/bad-json', {}, /the response is not valid JSON/],
    ['/echo', { tool_calls_path: '$.usage' }, /tool calls or usage are invalid: tool_calls\.0\.tool_name/],
  ])('%s with %o is invalid_output', async (path, extra, message) => {
    const result = await (await agentFor({ url: `${base}${path}`, ...extra })).run('q', trialContext());
    expect(result.error_kind).toBe('invalid_output');
    expect(result.error).toMatch(message);
  });

  it('makes status >= 400 an error carrying the status and the body tail', async () => {
    const notFound = await (await agentFor({ url: `${base}/404` })).run('q', trialContext());
    expect(notFound.error_kind).toBe('agent');
    expect(notFound.metadata).toMatchObject({ status: 404 });
    expect(notFound.error).toMatch(/^HTTP 404 Not Found: x+not here$/);
    expect(notFound.error?.length).toBeLessThan(2100);
    const tooMany = await (await agentFor({ url: `${base}/429` })).run('q', trialContext());
    expect(tooMany).toMatchObject({ error_kind: 'transient', metadata: { status: 429 } });
    expect(tooMany.error).toContain('slow down');
    const failed = await (await agentFor({ url: `${base}/500` })).run('q', trialContext());
    expect(failed).toMatchObject({ error_kind: 'transient', metadata: { status: 500 } });
  });

  it('aborts a slow request at the trial timeout', async () => {
    const trial = { signal: AbortSignal.timeout(100) };
    const result = await (await agentFor({ url: `${base}/slow` })).run(
      'q',
      trialContext({ signal: trial.signal }),
    );
    expect(result.error_kind).toBe('timeout');
  });

  it('stops reading a body over 10 MB', async () => {
    const result = await (await agentFor({ url: `${base}/huge` })).run('q', trialContext());
    expect(result.error_kind).toBe('invalid_output');
    expect(result.error).toMatch(/larger than the limit of 10485760 bytes/);
  });

  it('classifies a reset connection as transient and a refused one as config', async () => {
    const reset = await (await agentFor({ url: `${base}/reset` })).run('q', trialContext());
    expect(reset.error_kind).toBe('transient');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = await (await agentFor({ url: `http://127.0.0.1:${port}/` })).run('q', trialContext());
    expect(refused.error_kind).toBe('config');
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });

  it('expands ${ENV} headers at call time and never puts the value in the output', async () => {
    const secret = 'sk-test-7f3a9c';
    const agent = await agentFor(
      {
        url: `${base}/echo`,
        headers: { authorization: 'Bearer ${API_TOKEN}' },
        body: { prompt: '{{input}}' },
      },
      { API_TOKEN: secret },
    );
    const result = await agent.run('Ada', trialContext());
    expect(received.at(-1)?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('refuses at creation a missing variable or a malformed JSONPath', async () => {
    const missing: unknown = await agentFor({
      url: `${base}/`,
      headers: { 'x-key': '${NOT_SET_ANYWHERE}' },
    }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HarnessEvalError);
    expect(missing).toMatchObject({
      code: 'invalid_config',
      message: 'environment variable NOT_SET_ANYWHERE is not set (in headers.x-key)',
    });
    await expect(agentFor({ url: `${base}/`, output_path: '$[' })).rejects.toThrow(
      /output_path "\$\[" is not valid JSONPath/,
    );
    await expect(agentFor({ url: 'ftp://127.0.0.1/x' })).rejects.toThrow(
      /must use http: or https:, not ftp:/,
    );
  });

  it('lets a configured header replace a default whatever its case', async () => {
    const agent = await agentFor({
      url: `${base}/`,
      headers: { 'Content-Type': 'application/vnd.test+json' },
    });
    await agent.run('q', trialContext());
    expect(received.at(-1)?.headers['content-type']).toBe('application/vnd.test+json');
    expect(received.at(-1)?.headers['x-harnesseval-trial']).toBeDefined();
  });

  it('reuses one kept-alive connection across trials, and close() releases it', async () => {
    const sockets = new Set<unknown>();
    let closed = 0;
    const local = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"output":"ok"}');
      });
    });
    local.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => {
        closed += 1;
      });
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const agent = await agentFor({ url: `http://127.0.0.1:${portOf(local)}/`, output_path: '$.output' });
      for (let i = 0; i < 5; i++) expect((await agent.run('q', trialContext())).output).toBe('ok');
      expect(sockets.size).toBe(1);
      await agent.close?.();
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error('the connection was not closed')), 2000);
        const poll = setInterval(() => {
          if (closed === 1) {
            clearInterval(poll);
            clearTimeout(deadline);
            resolve();
          }
        }, 10);
      });
    } finally {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    }
  });
});
