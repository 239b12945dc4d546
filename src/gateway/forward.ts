import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    const carriesRouteKey =
      (name === 'x-api-key' || name === 'authorization') && String(value).includes(routeKey);
    if (carriesRouteKey) continue;
    out[name] = value;
  }
  // Identity: the gateway reads the stream as it passes, so it must not be compressed.
  out['accept-encoding'] = 'identity';
  if (target.apiKey !== undefined) {
    delete out['x-api-key'];
    delete out['authorization'];
    if (api === 'anthropic-messages') out['x-api-key'] = target.apiKey;
    else out['authorization'] = `Bearer ${target.apiKey}`;
  }
  return out;
}

/** The upstream URL for a request path (after the route prefix), keeping the base URL's own path. */
export function upstreamUrl(target: ForwardTarget, pathAndQuery: string): URL {
  const base = target.baseUrl.href.replace(/\/+$/, '');
  return new URL(base + pathAndQuery);
}

/** Sends one request upstream; resolves with the response as soon as its headers arrive. */
export function sendUpstream(options: {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
  readonly signal: AbortSignal;
}): Promise<IncomingMessage> {
  const { url } = options;
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: options.method,
      headers: { ...options.headers, 'content-length': String(options.body.length) },
      agent: secure ? httpsAgent : httpAgent,
      signal: options.signal,
    });
    req.setNoDelay(true);
    req.on('response', resolve);
    req.on('error', reject);
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
