import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProductStore } from './product-store.ts';
import { validateProduct } from './validation.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const notFound: Reply = { status: 404, body: { error: 'not_found' } };
const notAllowed = (allow: string): Reply => ({
  status: 405,
  body: { error: 'method_not_allowed' },
  headers: { allow },
});
class InvalidJson extends Error {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (cause) {
    throw new InvalidJson('invalid JSON body', { cause });
  }
}

async function route(store: ProductStore, req: IncomingMessage): Promise<Reply> {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  const segments = pathname.split('/').filter(Boolean);
  if (segments[0] !== 'products' || segments.length > 2) return notFound;

  const id = segments[1];
  if (id === undefined) {
    if (req.method === 'GET') return { status: 200, body: store.list() };
    if (req.method !== 'POST') return notAllowed('GET, POST');
    const input = validateProduct(await readJson(req), { partial: false });
    if (!input.ok) return { status: 400, body: { error: 'validation_failed', details: input.errors } };
    const product = store.create(input.value);
    return { status: 201, body: product, headers: { location: `/products/${product.id}` } };
  }

  switch (req.method) {
    case 'GET': {
      const product = store.get(id);
      return product ? { status: 200, body: product } : notFound;
    }
    case 'PATCH': {
      const patch = validateProduct(await readJson(req), { partial: true });
      if (!patch.ok) return { status: 400, body: { error: 'validation_failed', details: patch.errors } };
      const product = store.update(id, patch.value);
      return product ? { status: 200, body: product } : notFound;
    }
    case 'DELETE':
      return store.remove(id) ? { status: 204 } : notFound;
    default:
      return notAllowed('GET, PATCH, DELETE');
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers).end();
    return;
  }
  const headers = { 'content-type': 'application/json; charset=utf-8', ...reply.headers };
  res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
}

/** The products API as a plain `node:http` handler; see REQUIREMENTS.md. */
export function createHandler(store: ProductStore): Handler {
  return (req, res) => {
    route(store, req).then(
      (reply) => send(res, reply),
      (error: unknown) => {
        if (error instanceof InvalidJson) send(res, { status: 400, body: { error: 'invalid_json' } });
        else send(res, { status: 500, body: { error: 'internal_error' } });
      },
    );
  };
}
