import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HangUpSignal } from './hang-up.ts';
import type { ModelApi } from './protocol.ts';

/** A provider or base URL the gateway forwards to, with the key it adds (read from the environment). */
export interface ForwardTarget {
  readonly baseUrl: URL;
  /** The upstream's key; undefined to pass the harness's own credentials through. */
  readonly apiKey?: string;
  /** Shown in records: the upstream's origin (never a key). */
  readonly label: string;
}

export const PROVIDER_URLS = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
} as const;

/** Headers that belong to one hop, or that the gateway sets itself. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'accept-encoding',
  'x-harnesseval-role',
]);

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/**
 * The headers sent upstream: the harness's, minus hop headers; the route key (a placeholder the
 * harness was given) is replaced by the upstream key in the API's own auth header.
 */
export function upstreamHeaders(
  headers: IncomingHttpHeaders,
  api: ModelApi,
  target: ForwardTarget,
  routeKey: string,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const replacesAuth = target.apiKey !== undefined;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    const auth = name === 'x-api-key' || name === 'authorization';
    // The harness's own credentials give way to the upstream key; the route key never goes upstream.
    if (auth && (replacesAuth || String(value).includes(routeKey))) continue;
    out[name] = value;
  }
  // Identity: the gateway reads the stream as it passes, so it must not be compressed.
  out['accept-encoding'] = 'identity';
  if (target.apiKey !== undefined) {
    if (api === 'anthropic-messages') out['x-api-key'] = target.apiKey;
    else out['authorization'] = `Bearer ${target.apiKey}`;
  }
  return out;
}

/** Where a request goes upstream: the base URL's origin, and its path followed by the request's. */
export interface UpstreamLocation {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: string;
  /** The base URL's own path (no trailing slash) then the path and query after the route prefix. */
  readonly path: string;
}

/** The upstream location for a request path (after the route prefix), keeping the base URL's own path. */
export function upstreamLocation(target: ForwardTarget, pathAndQuery: string): UpstreamLocation {
  const base = target.baseUrl;
  const host = base.hostname;
  return {
    secure: base.protocol === 'https:',
    // An IPv6 literal is bracketed in a URL, not in a socket address.
    hostname: host.startsWith('[') ? host.slice(1, -1) : host,
    port: base.port,
    path: base.pathname.replace(/\/+$/, '') + pathAndQuery,
  };
}

/**
 * Sends one request upstream; resolves with the response as soon as its headers arrive. An abort
 * before then destroys the request (after, the caller stops reading and destroys the response).
 */
export function sendUpstream(options: {
  readonly to: UpstreamLocation;
  readonly method: string;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
  readonly signal: HangUpSignal;
}): Promise<IncomingMessage> {
  const { to, signal } = options;
  const send = to.secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    options.headers['content-length'] = String(options.body.length);
    const req = send({
      hostname: to.hostname,
      ...(to.port === '' ? {} : { port: to.port }),
      path: to.path,
      method: options.method,
      headers: options.headers,
      agent: to.secure ? httpsAgent : httpAgent,
    });
    const onAbort = () => req.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort);
    req.setNoDelay(true);
    req.on('response', (res) => {
      signal.removeEventListener('abort', onAbort);
      resolve(res);
    });
    req.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    req.end(options.body);
  });
}

/** Response headers passed back to the harness (hop headers dropped). */
export function clientHeaders(
  headers: IncomingHttpHeaders,
  dropLength: boolean,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'connection' || name === 'keep-alive' || name === 'transfer-encoding')
      continue;
    if (dropLength && name === 'content-length') continue;
    out[name] = value;
  }
  return out;
}
