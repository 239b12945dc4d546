import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProductStore } from './product-store.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The products API as a plain `node:http` handler; see REQUIREMENTS.md. */
export function createHandler(_store: ProductStore): Handler {
  return (_req, res) => {
    res.writeHead(501, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: 'not_implemented' }));
  };
}
