import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentOutputDraft, ErrorKind, ToolCall } from '../core/agent-output.ts';

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

/**
 * Calls one tool and maps the result: text -> output, `structuredContent` -> structured,
 * `isError` -> an `agent` error carrying the text. Never throws; a failed request is returned
 * as `error` with `kind` decided by `classify`.
 */
export async function callMcpTool(options: {
  client: Client;
  tool: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  classify: (error: unknown) => { message: string; kind: ErrorKind };
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
      error_kind: 'agent',
    };
  } catch (error) {
    const { message, kind } = signal.aborted
      ? { message: `tool \`${tool}\` was cancelled (${abortKind(signal)})`, kind: abortKind(signal) }
      : options.classify(error);
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
