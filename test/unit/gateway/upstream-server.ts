import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface SeenRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** A chunk of the answer, sent after `afterMs`. */
export interface AnswerChunk {
  readonly text: string;
  readonly afterMs?: number;
}

/**
 * A real model-API stand-in on 127.0.0.1: `answer` decides the status, content type and the
 * chunks of each response, so tests can check what the gateway passes through and records.
 */
export async function startUpstream(
  answer: (request: SeenRequest) => { status?: number; contentType: string; chunks: AnswerChunk[] },
): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', async () => {
      const request = { url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') };
      requests.push(request);
      const plan = answer(request);
      res.writeHead(plan.status ?? 200, { 'content-type': plan.contentType });
      res.flushHeaders();
      for (const chunk of plan.chunks) {
        if (chunk.afterMs !== undefined) await delay(chunk.afterMs);
        if (res.destroyed) return;
        res.write(chunk.text);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An Anthropic stream of `text` with the given usage, split into events (as the real API sends). */
export function anthropicStream(
  text: string,
  usage: { input: number; output: number },
  id = 'msg_up',
): string[] {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output } }),
    ev('message_stop', {}),
  ];
}
