import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AgentOutputDraft, ErrorKind, ToolCall } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';

/** What one MCP tool call adds to a trial's AgentOutput. */
export type ToolCallOutcome = Pick<AgentOutputDraft, 'output' | 'structured' | 'error' | 'error_kind'> & {
  readonly call: ToolCall;
};

/** Calls may run as long as the trial does: the trial's signal, not the SDK's 60 s default, ends them. */
const NO_REQUEST_TIMEOUT_MS = 2_147_483_647;

/** `timeout` when the signal fired for the trial's timeout, else `aborted`. */
export function abortKind(signal: AbortSignal): ErrorKind {
  const reason: unknown = signal.reason;
  const name = typeof reason === 'object' && reason !== null && 'name' in reason ? reason.name : undefined;
  return name === 'TimeoutError' ? 'timeout' : 'aborted';
}

/** Joined text blocks; a result without text falls back to its structured content. */
function outputOf(content: readonly { type: string; text?: unknown }[], structured: unknown) {
  const texts = content.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  if (texts.length > 0 || structured === undefined) return texts.join('\n');
  return structured;
}

function asOutput(value: unknown): AgentOutputDraft['output'] {
  if (typeof value === 'string' || value === null || Array.isArray(value)) return value;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value));
  return JSON.stringify(value);
}

/** The tools a server lists, or undefined when it cannot say (then the error's words decide). */
export type KnownTools = () => Promise<ReadonlySet<string> | undefined>;

/** Lists a server's tools once (following pages); undefined when the server does not answer. */
export function toolLister(client: Client): KnownTools {
  let listed: Promise<ReadonlySet<string> | undefined> | undefined;
  return () => {
    listed ??= (async () => {
      const names = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const result = await client.listTools(cursor === undefined ? {} : { cursor });
        for (const tool of result.tools) names.add(tool.name);
        cursor = result.nextCursor;
        if (cursor === undefined) return names;
      }
      return names;
    })().catch(() => undefined);
    return listed;
  };
}

const NOT_FOUND = /\b(?:tool\b.*\bnot found|unknown tool|no such tool)/i;

/**
 * What kind of refusal a server's error answer is: the tool does not exist (`tool_unknown`, by the
 * server's tool list when it gives one), its arguments were invalid (`tool_invalid_args`, JSON-RPC
 * -32602 "invalid params"), or the tool ran and reported an error (`tool_error`).
 */
export async function toolAnswerKind(
  tool: string,
  message: string,
  code: number | undefined,
  knownTools: KnownTools,
): Promise<ErrorKind> {
  const known = await knownTools();
  if (known !== undefined && !known.has(tool)) return 'tool_unknown';
  const written = /^MCP error (-?\d+)/.exec(message)?.[1];
  const jsonRpc = code ?? (written === undefined ? undefined : Number(written));
  if (known === undefined && NOT_FOUND.test(message)) return 'tool_unknown';
  if (jsonRpc === ErrorCode.InvalidParams) return 'tool_invalid_args';
  if (jsonRpc === ErrorCode.MethodNotFound) return 'tool_unknown';
  return 'tool_error';
}

/**
 * Calls one tool and maps the result: text -> output, `structuredContent` -> structured,
 * `isError` -> an error carrying the text, of the kind `toolAnswerKind` says. Never throws; a
 * JSON-RPC error answer is classified the same way, and any other failed request gets the kind
 * `lost` decides (a server that died: `crash`), else `agent`.
 */
export async function callMcpTool(options: {
  client: Client;
  tool: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  knownTools: KnownTools;
  lost: () => { message: string; kind: ErrorKind } | undefined;
}): Promise<ToolCallOutcome> {
  const { client, tool, args, signal } = options;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const raw = await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
      signal,
      timeout: NO_REQUEST_TIMEOUT_MS,
    });
    const result = CallToolResultSchema.parse(raw);
    const structured = result.structuredContent;
    const output = asOutput(outputOf(result.content, structured));
    const recorded = {
      content: result.content,
      structuredContent: structured,
      isError: result.isError ?? false,
    };
    const status = result.isError === true ? 'error' : 'success';
    const call: ToolCall = { tool_name: tool, args, result: recorded, duration: seconds(), status };
    if (result.isError !== true) return { output, structured, call };
    const text = typeof output === 'string' && output !== '' ? output : JSON.stringify(output);
    return {
      output,
      structured,
      call,
      error: `tool \`${tool}\` returned an error: ${text}`,
      error_kind: await toolAnswerKind(tool, text, undefined, options.knownTools),
    };
  } catch (error) {
    const { message, kind } = signal.aborted
      ? { message: `tool \`${tool}\` was cancelled (${abortKind(signal)})`, kind: abortKind(signal) }
      : (options.lost() ?? (await failedRequest(tool, error, options.knownTools)));
    const call: ToolCall = {
      tool_name: tool,
      args,
      result: { error: message },
      duration: seconds(),
      status: 'error',
    };
    return { output: null, call, error: message, error_kind: kind };
  }
}

/** A request the server answered with a JSON-RPC error, or that failed on the way (`agent`). */
async function failedRequest(
  tool: string,
  error: unknown,
  knownTools: KnownTools,
): Promise<{ message: string; kind: ErrorKind }> {
  const message = `tool \`${tool}\` failed: ${errorMessage(error)}`;
  if (!(error instanceof McpError)) return { message, kind: 'agent' };
  return { message, kind: await toolAnswerKind(tool, error.message, error.code, knownTools) };
}
