import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { JsonValue } from 'jsonpath-rfc9535';
import type { z } from 'zod';
import { type AgentOutput, AgentOutputSchema } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { parseEvents } from '../instrument/events.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { compileJsonPath, type JsonPathQuery } from '../util/json-path-query.ts';
import {
  abortedOutput,
  failedOutput,
  isTransientStatus,
  jsonOutput,
  MAX_OUTPUT_BYTES,
  plainOutput,
  secondsSince,
  tooDeep,
} from './agent-result.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import { fillJsonTemplate } from './input-template.ts';
import { networkErrorKind, networkErrorMessage } from './network-error.ts';
import { readLimited, readTail } from './read-limited.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type HttpOptions = AdapterOptions<'http'>;

/** How much of an error response is kept in the message. */
const ERROR_TAIL_BYTES = 2048;
const TRIAL_HEADER = 'x-harnesseval-trial';

class OutputError extends Error {}

/** A configured path, parsed once per agent (a malformed one fails before the first trial). */
interface ResponsePath {
  readonly name: string;
  readonly path: string;
  readonly query: JsonPathQuery;
}

function compilePath(name: string, path: string | undefined): ResponsePath | undefined {
  if (path === undefined) return undefined;
  try {
    return { name, path, query: compileJsonPath(path) };
  } catch (error) {
    throw new HarnessEvalError(
      'invalid_config',
      `${name} "${path}" is not valid JSONPath: ${errorMessage(error)}`,
    );
  }
}

/** Values matched by a JSONPath: one match is that value, several are a list. */
function select(body: JsonValue, { name, path, query }: ResponsePath): unknown {
  const matches = query(body);
  if (matches.length === 0) throw new OutputError(`${name} "${path}" matched nothing in the response`);
  return matches.length === 1 ? matches[0] : matches;
}

/** The response paths of the options, compiled. */
interface ResponsePaths {
  readonly output?: ResponsePath | undefined;
  readonly toolCalls?: ResponsePath | undefined;
  readonly usage?: ResponsePath | undefined;
  readonly events?: ResponsePath | undefined;
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** Built once: constructing a zod schema per request cost more than parsing with it. */
const ToolCallsAndUsageSchema = AgentOutputSchema.pick({ tool_calls: true, usage: true });

/** Maps a JSON response to an AgentOutput with the configured paths. */
function fromJson(
  body: JsonValue,
  paths: ResponsePaths,
  latency: number,
  metadata: Record<string, unknown>,
): AgentOutput {
  const selected = paths.output === undefined ? body : select(body, paths.output);
  // Only the output: nothing from the service to validate (the common case, once per trial).
  if (paths.toolCalls === undefined && paths.usage === undefined && paths.events === undefined)
    return plainOutput(jsonOutput(selected), latency, metadata);
  const draft = ToolCallsAndUsageSchema.safeParse({
    tool_calls: paths.toolCalls === undefined ? [] : [select(body, paths.toolCalls)].flat(),
    usage: paths.usage === undefined ? undefined : select(body, paths.usage),
  });
  if (!draft.success)
    throw new OutputError(`the response's tool calls or usage are invalid: ${issuesOf(draft.error)}`);
  if (paths.events === undefined)
    return AgentOutputSchema.parse({ ...jsonOutput(selected), ...draft.data, latency, metadata });
  // A remote harness reports its events in the response, in the event protocol's shape.
  const events = [select(body, paths.events)].flat();
  const reported = parseEvents(events.map((event) => JSON.stringify(event)).join('\n'));
  return AgentOutputSchema.parse({
    ...jsonOutput(selected),
    ...draft.data,
    tool_calls: [...draft.data.tool_calls, ...reported.toolCalls],
    trace: reported.trace,
    latency,
    metadata,
  });
}

function isJsonContentType(contentType: string): boolean {
  // application/json, application/problem+json, text/json, with or without parameters.
  return /\bjson\b/i.test(contentType);
}

/**
 * The endpoint and one keep-alive connection pool per agent (a run): node:http costs a third of
 * the CPU per request that `fetch` does (bench/README.md), and reused connections skip the TCP
 * handshake that a fresh connection per trial would pay. The URL is split into request options
 * once, not on every request.
 */
interface Endpoint {
  readonly target: RequestOptions;
  readonly agent: HttpAgent;
  readonly request: typeof httpRequest;
  readonly paths: ResponsePaths;
}

function endpointOf(url: string, paths: ResponsePaths): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HarnessEvalError('invalid_config', `url "${url}" is not a valid URL`);
  }
  const target = urlToHttpOptions(parsed);
  if (parsed.protocol === 'http:')
    return { target, agent: new HttpAgent({ keepAlive: true }), request: httpRequest, paths };
  if (parsed.protocol === 'https:')
    return { target, agent: new HttpsAgent({ keepAlive: true }), request: httpsRequest, paths };
  throw new HarnessEvalError(
    'invalid_config',
    `url "${url}" must use http: or https:, not ${parsed.protocol}`,
  );
}

/** Sends one request; resolves with the response once its headers arrive. */
function send(
  endpoint: Endpoint,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = endpoint.request(
      { ...endpoint.target, method, headers, agent: endpoint.agent, signal },
      resolve,
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function callEndpoint(
  options: HttpOptions,
  endpoint: Endpoint,
  environment: AdapterEnvironment,
  input: TaskInput,
  ctx: TrialContext,
): Promise<AgentOutput> {
  const start = performance.now();
  const body = options.method === 'GET' ? undefined : JSON.stringify(fillJsonTemplate(options.body, input));
  // Header names are case-insensitive: kept lower-case so a configured one replaces a default.
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/*;q=0.5',
  };
  try {
    // Expanded for this request only: the values are secrets and are never kept.
    for (const [name, value] of Object.entries(options.headers)) {
      headers[name.toLowerCase()] = expandEnvTemplate(value, environment.env, `headers.${name}`);
    }
  } catch (error) {
    return failedOutput('config', errorMessage(error));
  }
  headers[TRIAL_HEADER] = ctx.trialId;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

  let response: IncomingMessage;
  try {
    response = await send(endpoint, options.method, headers, body, ctx.signal);
  } catch (error) {
    const latency = secondsSince(start);
    if (ctx.signal.aborted) return abortedOutput(ctx.signal, { latency });
    return failedOutput(
      networkErrorKind(error),
      `request to ${options.url} failed: ${networkErrorMessage(error)}`,
      {
        latency,
      },
    );
  }

  const status = response.statusCode ?? 0;
  const contentType = response.headers['content-type'] ?? '';
  const metadata = { status, content_type: contentType };
  try {
    if (status >= 400) {
      const tail = await readTail(response, ERROR_TAIL_BYTES, MAX_OUTPUT_BYTES);
      const kind = isTransientStatus(status) ? 'transient' : 'agent';
      const message = `HTTP ${status} ${response.statusMessage ?? ''}${tail === '' ? '' : `: ${tail}`}`;
      return failedOutput(kind, message, { latency: secondsSince(start), metadata });
    }
    const read = await readLimited(response, MAX_OUTPUT_BYTES);
    const latency = secondsSince(start);
    if (!read.ok) {
      return failedOutput(
        'invalid_output',
        `the response body is larger than the limit of ${MAX_OUTPUT_BYTES} bytes (stopped reading at ${read.receivedBytes})`,
        { latency, metadata },
      );
    }
    const text = read.bytes.toString('utf8');
    if (!isJsonContentType(contentType)) {
      if (options.output_path !== undefined) {
        throw new OutputError(
          `output_path is set but the response is not JSON (content-type: ${contentType || 'none'})`,
        );
      }
      return plainOutput({ output: text }, latency, metadata);
    }
    let json: JsonValue;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new OutputError(`the response is not valid JSON: ${errorMessage(error)}`);
    }
    // Before any path is applied: JSONPath's `..` and every later walk recurse.
    const refused = tooDeep(json, 'the response');
    if (refused !== undefined) return failedOutput(refused.kind, refused.reason, { latency, metadata });
    return fromJson(json, endpoint.paths, latency, metadata);
  } catch (error) {
    const latency = secondsSince(start);
    if (ctx.signal.aborted) return abortedOutput(ctx.signal, { latency, metadata });
    if (error instanceof OutputError)
      return failedOutput('invalid_output', error.message, { latency, metadata });
    return failedOutput(
      networkErrorKind(error),
      `reading the response failed: ${networkErrorMessage(error)}`,
      {
        latency,
        metadata,
      },
    );
  }
}

async function createHttpAgent(options: HttpOptions, environment: AdapterEnvironment): Promise<AgentV1> {
  // Fail before the first trial on a missing variable or a malformed path.
  for (const [name, value] of Object.entries(options.headers)) {
    expandEnvTemplate(value, environment.env, `headers.${name}`);
  }
  const endpoint = endpointOf(options.url, {
    output: compilePath('output_path', options.output_path),
    toolCalls: compilePath('tool_calls_path', options.tool_calls_path),
    usage: compilePath('usage_path', options.usage_path),
    events: compilePath('events_path', options.events_path),
  });
  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'response',
    run: async (input, ctx) =>
      ctx.signal.aborted
        ? abortedOutput(ctx.signal)
        : callEndpoint(options, endpoint, environment, input, ctx),
    close: async () => endpoint.agent.destroy(),
  };
}

export const httpAdapter: AdapterDefinition<typeof adapterOptionSchemas.http> = {
  name: 'http',
  description: 'A harness behind an HTTP endpoint: JSON request body template, JSONPath into the response.',
  options: adapterOptionSchemas.http,
  create: createHttpAgent,
};
