import type { HumanTouchpoint, ToolCall } from '../core/agent-output.ts';
import { clip, count, isRecord, type JsonRecord, record, records, text } from './json-fields.ts';
import { newTrace, type ParsedTranscript, RawEvents, usageOf } from './transcript.ts';

/** What an ACP session showed: its `session/update` notifications, permission answers and the prompt's end. */
export interface AcpSessionLog {
  readonly updates: readonly unknown[];
  readonly permissions: readonly HumanTouchpoint[];
  /** The `session/prompt` response; undefined when the turn never ended (timeout, crash). */
  readonly response?: unknown;
  readonly role?: string;
}

/** Stop reasons that mean the agent stopped itself on a limit: circuit breakers. */
const BREAKERS = new Set(['max_tokens', 'max_turn_requests', 'refusal']);
const IGNORED = new Set([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
]);

function contentText(content: unknown): string {
  const block = record(content);
  return block['type'] === 'text' ? (text(block['text']) ?? '') : '';
}

/**
 * The tool's own name, when the agent gives it: ACP has only a `title` for people and a `kind`, so
 * agents that name the tool the model called put it in their `_meta` namespace (the Claude Code
 * bridge: `_meta.claudeCode.toolName`). Trajectory checks and comparisons need that name, not a title.
 */
function metaToolName(update: JsonRecord): string | undefined {
  for (const namespace of Object.values(record(update['_meta']))) {
    const name = text(record(namespace)['toolName']);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * The prompt response's `usage` in our convention (input counts cache reads and writes). ACP's
 * `totalTokens` is the sum of all token types, so when it covers input, output and both cache
 * counts, `inputTokens` excluded the cache (the Claude Code bridge); when it falls short, the
 * agent's input already held it (OpenAI-style).
 */
function promptUsage(usage: JsonRecord) {
  const input = count(usage['inputTokens']);
  const output = count(usage['outputTokens']);
  const read = count(usage['cachedReadTokens']);
  const write = count(usage['cachedWriteTokens']);
  const total = typeof usage['totalTokens'] === 'number' ? usage['totalTokens'] : undefined;
  const separate = read + write > 0 && (total === undefined || total >= input + output + read + write);
  return {
    tokens_in: separate ? input + read + write : input,
    tokens_out: output,
    cached_tokens: read,
    cache_write_tokens: write,
  };
}

/** A tool call's output: its raw output, else the text of its content blocks. */
function toolResult(update: JsonRecord): unknown {
  if (update['rawOutput'] !== undefined) return update['rawOutput'];
  const parts = records(update['content']).map((c) => contentText(c['content']));
  return parts.length > 0 ? clip(parts.join('\n')) : undefined;
}

/**
 * An ACP session as a trace: message chunks make the output, `tool_call` / `tool_call_update`
 * the tool calls, `plan` and `usage_update` go to metadata, permission requests are human
 * touchpoints, a limit stop reason a circuit breaker. A pure function of what was received.
 */
export function parseAcpSession(log: AcpSessionLog): ParsedTranscript {
  const role = log.role ?? 'main';
  const trace = newTrace();
  const raw = new RawEvents();
  const tools = new Map<string, ToolCall>();
  const metadata: Record<string, unknown> = {};
  let output = '';
  let thoughts = 0;
  let plans = 0;
  // Text after a tool call is the next message: kept apart from the one before it.
  let toolSinceText = false;
  const named = new Set<string>();
  log.updates.forEach((notification, index) => {
    const update = record(record(notification)['update']);
    const kind = text(update['sessionUpdate']) ?? '';
    if (kind === 'agent_message_chunk') {
      const chunk = contentText(update['content']);
      if (chunk !== '' && toolSinceText && output !== '') output += '\n\n';
      if (chunk !== '') toolSinceText = false;
      output += chunk;
    } else if (kind === 'agent_thought_chunk') thoughts++;
    else if (kind === 'tool_call' || kind === 'tool_call_update') {
      toolSinceText = true;
      const id = text(update['toolCallId']) ?? `tool-${index}`;
      const call = tools.get(id) ?? { tool_name: 'tool', args: {}, id, role, status: 'success' as const };
      const own = metaToolName(update) ?? text(update['name']);
      const title = text(update['title']);
      if (own !== undefined) {
        call.tool_name = own;
        named.add(id);
      } else if (title !== undefined && !named.has(id) && (kind === 'tool_call' || call.tool_name === 'tool'))
        call.tool_name = title;
      if (isRecord(update['rawInput'])) call.args = update['rawInput'];
      const result = toolResult(update);
      if (result !== undefined) call.result = result;
      if (update['status'] === 'failed') call.status = 'error';
      tools.set(id, call);
    } else if (kind === 'plan') {
      plans++;
      metadata['plan'] = records(update['entries']).map((e) => ({
        content: e['content'],
        status: e['status'],
      }));
    } else if (kind === 'usage_update') {
      metadata['context_window'] = { used: count(update['used']), size: count(update['size']) };
      const cost = record(update['cost']);
      if (typeof cost['amount'] === 'number' && cost['currency'] === 'USD')
        metadata['reported_cost_usd'] = cost['amount'];
    } else if (!IGNORED.has(kind)) raw.add(index + 1, update, kind || '(no sessionUpdate)');
  });
  trace.human.push(...log.permissions);
  const response = isRecord(log.response) ? log.response : undefined;
  const stop = text(response?.['stopReason']);
  if (stop !== undefined && BREAKERS.has(stop))
    trace.circuit_breakers.push({ type: stop, trigger: 'stopReason', resolution: 'stopped' });
  // `usage` on the prompt response is not in the stable protocol yet; read it when an agent sends it.
  const usage = record(response?.['usage']);
  if (Object.keys(usage).length > 0)
    trace.agent_calls.push({
      role,
      ...promptUsage(usage),
      metadata: {
        usage_from: 'prompt_response',
        reasoning_tokens: count(usage['thoughtTokens']),
        calls_merged: true,
      },
    });
  return {
    output: output === '' && stop === undefined ? null : output,
    toolCalls: [...tools.values()],
    trace,
    usage: usageOf(trace.agent_calls),
    metadata: {
      ...metadata,
      ...(stop === undefined ? {} : { stop_reason: stop }),
      ...(thoughts > 0 ? { thought_chunks: thoughts } : {}),
      ...(plans > 0 ? { plan_updates: plans } : {}),
      ...raw.metadata(),
    },
    finished: stop !== undefined,
    ...(stop === 'cancelled'
      ? { error: { kind: 'aborted' as const, message: 'the ACP agent cancelled the turn' } }
      : {}),
  };
}
