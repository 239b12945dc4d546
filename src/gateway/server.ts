import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessEvalError } from '../core/errors.ts';
import type { ModelScript } from '../core/model-script.ts';
import { costOf, type PriceTable } from '../instrument/pricing.ts';
import { anthropicMessages } from './anthropic.ts';
import { type GatewayCall, promptTokens } from './call-record.ts';
import type { Cassette, CassetteRecorder } from './cassette.ts';
import { answerFromCassette } from './cassette-replay.ts';
import { answerFromScript, type Exchange, errorOutcome, type Outcome } from './exchange.ts';
import type { ForwardTarget } from './forward.ts';
import { forwardUpstream } from './forwarding.ts';
import { HangUp } from './hang-up.ts';
import { openaiChat } from './openai-chat.ts';
import { openaiResponses } from './openai-responses.ts';
import { type ApiModule, PROVIDER_OF } from './protocol.ts';
import { GatewayRoute } from './routes.ts';
import { isRecord } from './wire-json.ts';

/** Where the gateway's answers come from. */
export type GatewayUpstreamConfig =
  | { readonly kind: 'forward'; readonly target: ForwardTarget; readonly recorder?: CassetteRecorder }
  | {
      readonly kind: 'script';
      /** One script for every route, or one per route from its variables (`scripts/{task}.yaml`). */
      readonly script: ModelScript | ((vars: Readonly<Record<string, string>>) => Promise<ModelScript>);
    }
  | { readonly kind: 'cassette'; readonly cassette: Cassette };

export interface GatewayOptions {
  readonly upstream: GatewayUpstreamConfig;
  /** Keep request and response bodies in each call (redacted). */
  readonly recordBodies?: boolean;
  /** Prices each call; calls of unknown models carry no cost. */
  readonly prices?: PriceTable;
  /** Scrubs secrets from recorded bodies (the upstream key and route keys are always scrubbed). */
  readonly redact?: (text: string) => string;
  readonly host?: string;
  readonly port?: number;
  /**
   * Awaited before each call is answered (a shared rate limit); a rejection answers the call with
   * a 503 in the API's shape. The wait counts in the call's latency, as the harness saw it.
   */
  readonly beforeCall?: (provider: 'anthropic' | 'openai', signal: AbortSignal) => Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;
const ROUTE_ID = /^[A-Za-z0-9_-]+$/;

/** The API a request path names, after any route prefix. */
function apiFor(path: string): ApiModule | undefined {
  const query = path.indexOf('?');
  const bare = query === -1 ? path : path.slice(0, query);
  if (bare.endsWith('/messages')) return anthropicMessages;
  if (bare.endsWith('/chat/completions')) return openaiChat;
  if (bare.endsWith('/responses')) return openaiResponses;
  return undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The recording model gateway: a local HTTP server speaking the Anthropic Messages API and the
 * OpenAI Chat Completions and Responses APIs. Each trial opens a route; every model call on it is
 * answered (forwarded, scripted or replayed) and recorded.
 *
 * @example const gateway = await Gateway.start({ upstream: { kind: 'script', script } });
 *          const route = gateway.openRoute({ vars: { workspace } }); // route.env() for the harness
 */
export class Gateway {
  private readonly routes = new Map<string, GatewayRoute>();
  private readonly byKey = new Map<string, GatewayRoute>();
  private readonly secrets: string[];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: GatewayOptions,
  ) {
    const key = options.upstream.kind === 'forward' ? options.upstream.target.apiKey : undefined;
    this.secrets = key === undefined || key === '' ? [] : [key];
  }

  static async start(options: GatewayOptions): Promise<Gateway> {
    const server = createServer();
    server.keepAliveTimeout = 60_000;
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(
          new HarnessEvalError('invalid_config', `the gateway cannot listen on ${host}: ${error.message}`),
        ),
      );
      server.listen(options.port ?? 0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    const gateway = new Gateway(server, `http://${host.includes(':') ? `[${host}]` : host}:${port}`, options);
    server.on('request', (req, res) => void gateway.handle(req, res));
    return gateway;
  }

  /** A new route for one trial; `vars` fill a script's `{{name}}` templates (e.g. `workspace`). */
  openRoute(options: { vars?: Record<string, string>; label?: string } = {}): GatewayRoute {
    const vars = options.vars ?? {};
    const upstream = this.options.upstream;
    const source = upstream.kind === 'script' ? upstream.script : undefined;
    const script = typeof source === 'function' ? () => source(vars) : source;
    const route = new GatewayRoute(this.url, vars, options.label, script);
    this.routes.set(route.id, route);
    this.byKey.set(route.key, route);
    return route;
  }

  /** Closes a route and returns its calls; later calls on it are refused. */
  async closeRoute(route: GatewayRoute): Promise<GatewayCall[]> {
    const calls = await route.close();
    this.routes.delete(route.id);
    this.byKey.delete(route.key);
    return calls;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** The route a request names (`/r/<id>/…`, or the route key as its API key) and its path after it. */
  private findRoute(req: IncomingMessage): { route: GatewayRoute | undefined; path: string } {
    const url = req.url ?? '/';
    if (url.startsWith('/r/')) {
      const query = url.indexOf('?');
      const pathEnd = query === -1 ? url.length : query;
      const slash = url.indexOf('/', 3);
      const idEnd = slash === -1 || slash > pathEnd ? pathEnd : slash;
      const id = url.slice(3, idEnd);
      if (ROUTE_ID.test(id))
        return { route: this.routes.get(id), path: (idEnd === pathEnd ? '/' : '') + url.slice(idEnd) };
    }
    // No prefix: the route key as the API key names the route.
    const auth = req.headers['x-api-key'] ?? req.headers.authorization ?? '';
    const key = String(auth).replace(/^Bearer\s+/i, '');
    return { route: this.byKey.get(key), path: url };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { route, path } = this.findRoute(req);
    const api = apiFor(path);
    if (req.method !== 'POST' || api === undefined) {
      // Liveness probes (Claude Code sends `HEAD /`) get an empty answer.
      res.writeHead(req.method === 'HEAD' || req.method === 'GET' ? 200 : 404, {
        'content-type': 'application/json',
      });
      res.end(req.method === 'HEAD' ? undefined : '{}');
      return;
    }
    if (route === undefined || route.closed) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          api.errorBody('unknown_route', 'no open gateway route for this request (trial over?)'),
        ),
      );
      return;
    }
    route.begin();
    let call: GatewayCall | undefined;
    try {
      call = await this.exchange(req, res, route, api, path);
    } finally {
      route.finish(call);
    }
  }

  private async exchange(
    req: IncomingMessage,
    res: ServerResponse,
    route: GatewayRoute,
    api: ApiModule,
    path: string,
  ): Promise<GatewayCall | undefined> {
    // The clock time is read now and written out when the call is recorded, off the request's path.
    const startedAt = Date.now();
    const raw = await readBody(req).catch(() => undefined);
    const started = performance.now();
    let body: unknown;
    try {
      body = raw === undefined ? undefined : JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    const seq = route.nextSeq();
    const bodyRecord = isRecord(body) ? body : {};
    const ex: Exchange = {
      api,
      view: api.view(bodyRecord),
      body: bodyRecord,
      raw: raw ?? Buffer.alloc(0),
      req,
      res,
      route,
      seq,
      started,
      path,
      signal: new HangUp(res),
      keepText:
        this.options.recordBodies === true ||
        (this.options.upstream.kind === 'forward' && this.options.upstream.recorder !== undefined),
    };
    const outcome = isRecord(body)
      ? await this.answer(ex)
      : errorOutcome(ex, 400, 'invalid_request_error', 'the request body is not a JSON object', 'gateway');
    return this.record(ex, outcome, startedAt);
  }

  private async answer(ex: Exchange): Promise<Outcome> {
    if (this.options.beforeCall !== undefined) {
      try {
        await this.options.beforeCall(PROVIDER_OF[ex.api.api], ex.signal.asAbortSignal());
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return errorOutcome(ex, 503, 'api_error', `the gateway's rate limit wait ended: ${why}`, 'gateway');
      }
    }
    const upstream = this.options.upstream;
    switch (upstream.kind) {
      case 'script':
        return answerFromScript(ex);
      case 'cassette':
        return answerFromCassette(ex, upstream.cassette);
      case 'forward':
        return forwardUpstream(ex, upstream.target, upstream.recorder);
    }
  }

  private record(ex: Exchange, outcome: Outcome, startedAt: number): GatewayCall {
    const seen = outcome.observation;
    const usage = outcome.scriptedUsage ?? seen.usage;
    const usageReported = outcome.scriptedUsage !== undefined || seen.usage_reported;
    const model = seen.model ?? ex.view.model;
    const provider = PROVIDER_OF[ex.api.api];
    const error = outcome.error ?? seen.error;
    const role = ex.req.headers['x-harnesseval-role'];
    const cost =
      this.options.prices === undefined || !usageReported
        ? undefined
        : costOf(this.options.prices, {
            model,
            provider,
            tokens_in: promptTokens({ usage }),
            tokens_out: usage.output_tokens,
            cached_tokens: usage.cache_read_tokens,
            cache_write_tokens: usage.cache_write_tokens,
          });
    return {
      route: ex.route.id,
      seq: ex.seq,
      api: ex.api.api,
      provider,
      upstream: outcome.upstream,
      model,
      ...(typeof role === 'string' && role !== '' ? { role } : {}),
      ...(seen.response_id === undefined ? {} : { response_id: seen.response_id }),
      stream: ex.view.stream,
      status: outcome.status,
      started_at: new Date(startedAt).toISOString(),
      latency_seconds: Math.max(0, ((outcome.sentAt ?? performance.now()) - ex.started) / 1000),
      ...(outcome.ttftSeconds === undefined ? {} : { ttft_seconds: outcome.ttftSeconds }),
      usage: { ...usage },
      usage_reported: usageReported,
      ...(seen.stop_reason === undefined ? {} : { stop_reason: seen.stop_reason }),
      tool_calls: seen.tool_calls,
      ...(cost === undefined ? {} : { cost_usd: cost }),
      ...(error === undefined ? {} : { error }),
      ...(this.options.recordBodies === true ? this.bodies(ex, outcome) : {}),
    };
  }

  private bodies(ex: Exchange, outcome: Outcome): Pick<GatewayCall, 'request_body' | 'response_body'> {
    const scrub = (text: string): string => {
      let out = this.options.redact?.(text) ?? text;
      for (const secret of [...this.secrets, ex.route.key]) out = out.split(secret).join('[REDACTED]');
      return out;
    };
    return {
      request_body: JSON.parse(scrub(JSON.stringify(ex.body))),
      ...(outcome.text === undefined ? {} : { response_body: scrub(outcome.text) }),
    };
  }
}
