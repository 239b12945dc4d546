import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  readonly model: string;
  readonly temperature?: number;
  readonly messages: { role: string; content: string }[];
  readonly authorization?: string | undefined;
}

/** A Responses API input message: text, or a list of text parts. */
interface ResponsesInput {
  readonly role: string;
  readonly content: string | { type: string; text?: string }[];
}

/**
 * A real OpenAI-compatible server on 127.0.0.1 for judge tests: chat completions
 * (`/v1/chat/completions`) and the Responses API (`/v1/responses`, what the `openai` provider
 * calls). Both record the request as chat messages; `reply` decides the assistant's text.
 */
export async function startOpenAICompatibleServer(reply: (request: ChatRequest) => string): Promise<{
  baseURL: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Omit<ChatRequest, 'authorization'> & {
      input?: ResponsesInput[];
    };
    const messages =
      body.input?.map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join(''),
      })) ?? body.messages;
    const request: ChatRequest = {
      model: body.model,
      ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
      messages,
      authorization: req.headers.authorization,
    };
    requests.push(request);
    if (req.url === '/v1/responses') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `resp-${requests.length}`,
          created_at: 1764540000,
          model: body.model,
          output: [
            {
              type: 'message',
              role: 'assistant',
              id: `msg-${requests.length}`,
              content: [{ type: 'output_text', text: reply(request), annotations: [] }],
            },
          ],
          usage: { input_tokens: 50, output_tokens: 10 },
        }),
      );
      return;
    }
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
