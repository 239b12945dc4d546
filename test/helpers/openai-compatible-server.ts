import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  readonly model: string;
  readonly temperature?: number;
  readonly messages: { role: string; content: string }[];
  readonly authorization?: string | undefined;
}

/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1 for judge tests. `reply` decides
 * the assistant's text for each request.
 */
export async function startOpenAICompatibleServer(reply: (request: ChatRequest) => string): Promise<{
  baseURL: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Omit<ChatRequest, 'authorization'>;
    const request: ChatRequest = { ...body, authorization: req.headers.authorization };
    requests.push(request);
    if (req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const content = reply(request);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 1764540000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
