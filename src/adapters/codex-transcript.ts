import type { AgentCall, ToolCall } from '../core/agent-output.ts';
import { clip, count, type JsonRecord, parseLine, record, records, text } from './json-fields.ts';
import { newTrace, type ParsedTranscript, RawEvents, usageOf } from './transcript.ts';

/**
 * Codex's `codex exec --json` events (ThreadEvent lines) as a trace. A pure function of the lines
 * and, when given, the rollout Codex wrote under `CODEX_HOME/sessions`, whose `token_count`
 * events close each model call (the stream only has the turn's total).
 */
export interface CodexStreamOptions {
  readonly rolloutLines?: readonly string[];
  readonly role?: string;
  /** The model, when neither the rollout nor the stream says (the `-m` given). */
  readonly model?: string;
}

const TOKEN_FIELDS = [
  'input_tokens',
  'cached_input_tokens',
  'cache_write_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
] as const;
type Tokens = Record<(typeof TOKEN_FIELDS)[number], number>;

function tokens(usage: unknown): Tokens {
  const u = record(usage);
  return Object.fromEntries(TOKEN_FIELDS.map((f) => [f, count(u[f])])) as Tokens;
}

/** OpenAI semantics: `input_tokens` already include the cached ones, as our `tokens_in` does. */
function toCall(t: Tokens, role: string, model: string | undefined, source: string): AgentCall {
  return {
    role,
    ...(model === undefined ? {} : { model }),
    provider: 'openai',
    tokens_in: t.input_tokens,
    tokens_out: t.output_tokens,
    cached_tokens: t.cached_input_tokens,
    cache_write_tokens: t.cache_write_input_tokens,
    metadata: { usage_from: source, reasoning_tokens: t.reasoning_output_tokens },
  };
}

/** One call per `token_count`, from the cumulative totals (a repeated event adds nothing). */
function rolloutCalls(
  lines: readonly string[],
  role: string,
  fallbackModel: string | undefined,
): AgentCall[] {
  const calls: AgentCall[] = [];
  let model = fallbackModel;
  let previous = tokens({});
  for (const line of lines) {
    const parsed = parseLine(line);
    if (parsed === undefined || 'error' in parsed) continue;
    const payload = record(parsed.value['payload']);
    if (parsed.value['type'] === 'turn_context' && typeof payload['model'] === 'string')
      model = payload['model'];
    if (parsed.value['type'] !== 'event_msg' || payload['type'] !== 'token_count') continue;
    const total = tokens(record(payload['info'])['total_token_usage']);
    const delta = Object.fromEntries(
      TOKEN_FIELDS.map((f) => [f, Math.max(0, total[f] - previous[f])]),
    ) as Tokens;
    previous = total;
    if (TOKEN_FIELDS.every((f) => delta[f] === 0)) continue;
    calls.push(toCall(delta, role, model, 'rollout'));
  }
  return calls;
}

/** The questions of a `request_user_input` (its event, or its call's arguments in the rollout). */
function questionsNote(questions: unknown): string {
  const texts = records(questions).map((q) => text(q['question']) ?? text(q['text']) ?? '');
  return clip(texts.filter(Boolean).join(' | ') || 'input requested', 300);
}

/**
 * Requests for user input the rollout shows. `codex exec` refuses them (it has no one to ask), so
 * its event stream never says; the agent still asked, which is an unplanned touchpoint.
 */
function rolloutQuestions(lines: readonly string[]): string[] {
  const notes: string[] = [];
  for (const line of lines) {
    if (!line.includes('request_user_input')) continue;
    const parsed = parseLine(line);
    if (parsed === undefined || 'error' in parsed) continue;
    const payload = record(parsed.value['payload']);
    if (payload['type'] !== 'function_call' || payload['name'] !== 'request_user_input') continue;
    let args: unknown = {};
    try {
      args = JSON.parse(text(payload['arguments']) ?? '{}');
    } catch {
      // Arguments that are not JSON still mean a request was made.
    }
    notes.push(questionsNote(record(args)['questions']));
  }
  return notes;
}

function itemTool(item: JsonRecord, role: string): ToolCall | undefined {
  const status = text(item['status']);
  const failed = status === 'failed' || status === 'declined' || item['error'] !== undefined;
  const base = {
    id: text(item['id']) ?? '',
    role,
    status: failed ? ('error' as const) : ('success' as const),
  };
  switch (item['type']) {
    case 'command_execution':
      return {
        ...base,
        tool_name: 'shell',
        args: { command: item['command'] },
        result: clip(text(item['aggregated_output']) ?? ''),
      };
    case 'file_change':
      return { ...base, tool_name: 'apply_patch', args: { changes: item['changes'] ?? [] } };
    case 'mcp_tool_call':
      return {
        ...base,
        tool_name: `mcp__${text(item['server']) ?? 'server'}__${text(item['tool']) ?? 'tool'}`,
        args: record(item['arguments']),
        result:
          item['error'] === undefined || item['error'] === null
            ? item['result']
            : record(item['error'])['message'],
      };
    case 'web_search':
      return { ...base, tool_name: 'web_search', args: { query: item['query'] } };
    case 'collab_tool_call':
      return {
        ...base,
        tool_name: text(item['tool']) ?? 'collab',
        args: { prompt: item['prompt'], receivers: item['receiver_thread_ids'] },
      };
    default:
      return undefined;
  }
}

export function parseCodexStream(
  lines: readonly string[],
  options: CodexStreamOptions = {},
): ParsedTranscript {
  const role = options.role ?? 'main';
  const trace = newTrace();
  const raw = new RawEvents();
  const items = new Map<string, JsonRecord>();
  const order: string[] = [];
  const turnUsage: Tokens[] = [];
  const warnings: string[] = [];
  const metadata: Record<string, unknown> = {};
  let failure: string | undefined;
  let lastError: string | undefined;
  let finished = false;
  let turns = 0;

  lines.forEach((line, index) => {
    const parsed = parseLine(line);
    if (parsed === undefined) return;
    if ('error' in parsed) {
      trace.malformed_events.push({ line: index + 1, error: parsed.error });
      return;
    }
    const event = parsed.value;
    switch (event['type']) {
      case 'thread.started':
        metadata['thread_id'] = event['thread_id'];
        return;
      case 'turn.started':
        turns++;
        return;
      case 'turn.completed':
        turnUsage.push(tokens(event['usage']));
        finished = true;
        return;
      case 'turn.failed':
        failure = text(record(event['error'])['message']) ?? 'turn failed';
        finished = true;
        return;
      case 'error':
        lastError = text(event['message']) ?? 'error';
        return;
      case 'request_user_input': {
        const questions = records(event['questions']).map(
          (q) => text(q['question']) ?? text(q['text']) ?? '',
        );
        trace.human.push({
          action: 'answer',
          kind: 'unplanned',
          minutes: 0,
          note: clip(questions.filter(Boolean).join(' | ') || 'input requested', 300),
        });
        return;
      }
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const item = record(event['item']);
        const id = text(item['id']) ?? `line-${index + 1}`;
        if (!items.has(id)) order.push(id);
        items.set(id, item);
        return;
      }
      default:
        raw.add(index + 1, event);
    }
  });

  const toolCalls: ToolCall[] = [];
  let output: string | undefined;
  let reasoning = 0;
  for (const id of order) {
    const item = items.get(id) ?? {};
    if (item['type'] === 'agent_message') output = text(item['text']) ?? output;
    else if (item['type'] === 'reasoning') reasoning++;
    else if (item['type'] === 'error') warnings.push(text(item['message']) ?? 'error');
    else if (item['type'] === 'todo_list') metadata['plan'] = item['items'];
    else if (item['type'] === 'collab_tool_call' && item['tool'] === 'spawn_agent')
      for (const receiver of Array.isArray(item['receiver_thread_ids']) ? item['receiver_thread_ids'] : [])
        trace.agent_invocations.push({ name: 'subagent', id: String(receiver) });
    const tool = itemTool(item, role);
    if (tool !== undefined) toolCalls.push(tool);
    else if (!['agent_message', 'reasoning', 'error', 'todo_list', 'plan'].includes(String(item['type'])))
      raw.add(0, { type: `item:${String(item['type'])}`, item });
  }

  if (trace.human.length === 0)
    for (const note of rolloutQuestions(options.rolloutLines ?? []))
      trace.human.push({
        action: 'answer',
        kind: 'unplanned',
        minutes: 0,
        note: `${note} (not answered: exec mode)`,
      });
  const fromRollout = rolloutCalls(options.rolloutLines ?? [], role, options.model);
  const calls =
    fromRollout.length > 0 ? fromRollout : turnUsage.map((t) => toCall(t, role, options.model, 'turn'));
  trace.agent_calls.push(...calls);
  const usage = usageOf(calls);
  const turnTotal = turnUsage.reduce((s, t) => s + t.input_tokens + t.output_tokens, 0);
  if (fromRollout.length > 0 && turnUsage.length > 0 && turnTotal !== usage.tokens_in + usage.tokens_out)
    metadata['usage_mismatch'] = {
      calls: { tokens_in: usage.tokens_in, tokens_out: usage.tokens_out },
      turns: turnUsage,
    };
  const error = failure ?? (finished ? undefined : lastError);
  return {
    output: output ?? null,
    toolCalls,
    trace,
    usage,
    metadata: {
      ...metadata,
      turns,
      ...(reasoning > 0 ? { reasoning_items: reasoning } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...raw.metadata(),
    },
    finished: finished || error !== undefined,
    ...(error === undefined
      ? {}
      : { error: { kind: 'agent' as const, message: `codex: ${clip(error, 500)}` } }),
  };
}
