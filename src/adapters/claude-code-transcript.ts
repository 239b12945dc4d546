import type { AgentCall, ToolCall } from '../core/agent-output.ts';
import { withResult } from './claude-code-result.ts';
import {
  clip,
  contentText,
  count,
  isRecord,
  type JsonRecord,
  parseLine,
  record,
  records,
  text,
} from './json-fields.ts';
import { newTrace, type ParsedTranscript, RawEvents, usageOf } from './transcript.ts';

/**
 * Claude Code's `claude -p --output-format stream-json --verbose` stream, as a trace. A pure
 * function of the lines (and, when given, the session transcript Claude Code wrote under
 * `CLAUDE_CONFIG_DIR`, whose usage holds the final output counts the stream does not).
 */
export interface ClaudeCodeStreamOptions {
  /** Lines of `projects/<cwd>/<session>.jsonl` and its `subagents/*.jsonl`: per-message final usage. */
  readonly sessionLines?: readonly string[];
  /** The role of the main agent's calls. */
  readonly role?: string;
}

/** Tools whose calls start a sub-agent. */
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
/** The model name of messages Claude Code makes up itself (an API error shown as a message). */
const SYNTHETIC = '<synthetic>';

interface MessageCall {
  id: string;
  model?: string;
  usage: JsonRecord;
  stopReason?: string;
  role: string;
  parent?: string;
  firstLine: number;
}

interface SessionMessage {
  readonly usage: JsonRecord;
  readonly model?: string;
  /** The sub-agent that made the call (`agentId` of a sidechain entry). */
  readonly agentId?: string;
}

/**
 * Assistant messages of the session transcript by id: their final usage (the stream repeats
 * message_start's), and the sub-agents' calls, which the stream does not show at all.
 */
function sessionMessages(lines: readonly string[] | undefined): Map<string, SessionMessage> {
  const found = new Map<string, SessionMessage>();
  for (const line of lines ?? []) {
    const parsed = parseLine(line);
    if (parsed === undefined || 'error' in parsed || parsed.value['type'] !== 'assistant') continue;
    const message = record(parsed.value['message']);
    if (typeof message['id'] !== 'string' || !isRecord(message['usage']) || message['model'] === SYNTHETIC)
      continue;
    const agentId = parsed.value['isSidechain'] === true ? text(parsed.value['agentId']) : undefined;
    found.set(message['id'], {
      usage: message['usage'],
      ...(typeof message['model'] === 'string' ? { model: message['model'] } : {}),
      ...(agentId === undefined ? {} : { agentId }),
    });
  }
  return found;
}

function toAgentCall(call: MessageCall, usage: JsonRecord, source: string): AgentCall {
  const input = count(usage['input_tokens']);
  const read = count(usage['cache_read_input_tokens']);
  const written = count(usage['cache_creation_input_tokens']);
  return {
    role: call.role,
    ...(call.model === undefined ? {} : { model: call.model }),
    provider: 'anthropic',
    // Anthropic's input_tokens exclude the cache; ours count every prompt token.
    tokens_in: input + read + written,
    tokens_out: count(usage['output_tokens']),
    cached_tokens: read,
    cache_write_tokens: written,
    metadata: {
      message_id: call.id,
      usage_from: source,
      ...(call.stopReason === undefined ? {} : { stop_reason: call.stopReason }),
      ...(call.parent === undefined ? {} : { parent_tool_use_id: call.parent }),
    },
  };
}

export function parseClaudeCodeStream(
  lines: readonly string[],
  options: ClaudeCodeStreamOptions = {},
): ParsedTranscript {
  const mainRole = options.role ?? 'main';
  const trace = newTrace();
  const raw = new RawEvents();
  const messages = new Map<string, MessageCall>();
  const tools = new Map<string, ToolCall>();
  /** Tool-use id -> the message that asked for it. */
  const messageOfTool = new Map<string, string>();
  const subagentTypes = new Map<string, string>();
  /** Sub-agent id (`task_id` / `agentId`) -> its type and the tool call that started it. */
  const tasks = new Map<string, { type: string; toolUseId?: string }>();
  const metadata: Record<string, unknown> = {};
  let lastText: string | undefined;
  let result: JsonRecord | undefined;

  const roleOf = (parent: unknown) =>
    typeof parent === 'string' ? (subagentTypes.get(parent) ?? 'subagent') : mainRole;

  lines.forEach((line, index) => {
    const parsed = parseLine(line);
    if (parsed === undefined) return;
    if ('error' in parsed) {
      trace.malformed_events.push({ line: index + 1, error: parsed.error });
      return;
    }
    const event = parsed.value;
    const type = event['type'];
    if (type === 'system' && event['subtype'] === 'init') {
      for (const key of ['session_id', 'model', 'claude_code_version', 'permissionMode', 'cwd'] as const)
        if (event[key] !== undefined)
          metadata[key === 'permissionMode' ? 'permission_mode' : key] = event[key];
      if (Array.isArray(event['tools'])) metadata['tools'] = event['tools'].length;
    } else if (type === 'assistant') {
      const message = record(event['message']);
      if (message['model'] === SYNTHETIC) return;
      const id = text(message['id']) ?? `line-${index + 1}`;
      const call: MessageCall = messages.get(id) ?? {
        id,
        usage: {},
        role: roleOf(event['parent_tool_use_id']),
        ...(typeof event['parent_tool_use_id'] === 'string' ? { parent: event['parent_tool_use_id'] } : {}),
        firstLine: index + 1,
      };
      // One API call streams as several events sharing the message id: keep the last usage.
      if (isRecord(message['usage'])) call.usage = message['usage'];
      if (typeof message['model'] === 'string') call.model = message['model'];
      if (typeof message['stop_reason'] === 'string') call.stopReason = message['stop_reason'];
      messages.set(id, call);
      for (const block of records(message['content'])) {
        if (block['type'] === 'text' && typeof block['text'] === 'string') {
          if (call.parent === undefined) lastText = block['text'];
        } else if (block['type'] === 'tool_use' && typeof block['id'] === 'string') {
          const name = text(block['name']) ?? 'tool';
          const input = record(block['input']);
          if (SUBAGENT_TOOLS.has(name))
            subagentTypes.set(block['id'], text(input['subagent_type']) ?? 'subagent');
          messageOfTool.set(block['id'], id);
          tools.set(block['id'], {
            tool_name: name,
            args: input,
            id: block['id'],
            role: call.role,
            status: 'success',
          });
        }
      }
    } else if (type === 'user') {
      const message = record(event['message']);
      for (const block of records(message['content'])) {
        if (block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') continue;
        const call = tools.get(block['tool_use_id']);
        if (call === undefined) continue;
        call.result = clip(contentText(block['content']));
        call.status = block['is_error'] === true ? 'error' : 'success';
        const subagent = subagentTypes.get(block['tool_use_id']);
        if (subagent !== undefined) {
          const outcome = record(event['tool_use_result'] ?? event['toolUseResult']);
          if (typeof outcome['agentId'] === 'string')
            tasks.set(outcome['agentId'], {
              type: text(outcome['agentType']) ?? subagent,
              toolUseId: block['tool_use_id'],
            });
          const ms = count(outcome['totalDurationMs']);
          trace.agent_invocations.push({
            name: subagent,
            id: block['tool_use_id'],
            ...(ms > 0 ? { duration_seconds: ms / 1000 } : {}),
            ...(call.status === 'error' ? { error: clip(String(call.result), 500) } : {}),
          });
        }
      }
    } else if (
      type === 'system' &&
      typeof event['task_id'] === 'string' &&
      String(event['subtype']).startsWith('task_')
    ) {
      const known = tasks.get(event['task_id']);
      tasks.set(event['task_id'], {
        type: text(event['subagent_type']) ?? known?.type ?? 'subagent',
        ...(typeof event['tool_use_id'] === 'string'
          ? { toolUseId: event['tool_use_id'] }
          : known?.toolUseId === undefined
            ? {}
            : { toolUseId: known.toolUseId }),
      });
    } else if (type === 'result') {
      result = event;
    } else {
      raw.add(index + 1, event);
    }
  });

  const session = sessionMessages(options.sessionLines);
  const ordered = [...messages.values()].sort((a, b) => a.firstLine - b.firstLine);
  const calls = ordered.map((call) => {
    const final = session.get(call.id);
    return toAgentCall(call, final?.usage ?? call.usage, final === undefined ? 'stream' : 'session');
  });
  // Sub-agents' calls are only in their own transcripts: each goes after the call that started it.
  for (const [id, message] of session) {
    if (messages.has(id) || message.agentId === undefined) continue;
    const task = tasks.get(message.agentId);
    const parentId = task?.toolUseId === undefined ? undefined : messageOfTool.get(task.toolUseId);
    const call = toAgentCall(
      {
        id,
        usage: message.usage,
        role: task?.type ?? 'subagent',
        ...(message.model === undefined ? {} : { model: message.model }),
        ...(task?.toolUseId === undefined ? {} : { parent: task.toolUseId }),
        firstLine: 0,
      },
      message.usage,
      'session',
    );
    const at =
      parentId === undefined
        ? calls.length
        : calls.findIndex((c) => c.metadata['message_id'] === parentId) + 1;
    calls.splice(Math.max(at, 0), 0, { ...call, metadata: { ...call.metadata, agent_id: message.agentId } });
  }
  trace.agent_calls.push(...calls);
  const usage = usageOf(calls);
  const parsed: ParsedTranscript = {
    output: text(result?.['result']) ?? lastText ?? null,
    toolCalls: [...tools.values()],
    trace,
    usage,
    metadata: { ...metadata, ...raw.metadata() },
    finished: result !== undefined,
  };
  return result === undefined ? parsed : withResult(parsed, result);
}
