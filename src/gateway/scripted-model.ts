import type { ModelScript, ScriptPredicate, ScriptTurn, ScriptUsage } from '../core/model-script.ts';
import type { ModelTurn, RequestView, TokenCounts } from './protocol.ts';

/** What the scripted model does with one request. */
export type ScriptAnswer =
  | { readonly kind: 'turn'; readonly turn: ModelTurn; readonly delayMs: number; readonly entry: string }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type: string;
      readonly message: string;
      readonly delayMs: number;
    }
  | { readonly kind: 'hang' };

/** Why a script could not answer: no entry matched, or a template named an unknown variable. */
export class ScriptMiss extends Error {
  constructor(
    readonly type: 'script_exhausted' | 'script_variable',
    message: string,
  ) {
    super(message);
  }
}

function usageOf(script: ModelScript, turn: ScriptUsage | undefined): TokenCounts {
  const pick = (field: keyof ScriptUsage) => turn?.[field] ?? script.usage[field] ?? 0;
  return {
    input_tokens: pick('input_tokens'),
    output_tokens: pick('output_tokens'),
    cache_read_tokens: pick('cache_read_tokens'),
    cache_write_tokens: pick('cache_write_tokens'),
    reasoning_tokens: pick('reasoning_tokens'),
  };
}

function matches(when: ScriptPredicate, view: RequestView): boolean {
  if (when.api !== undefined && when.api !== view.api) return false;
  if (when.model !== undefined && when.model !== view.model) return false;
  if (when.last_user_contains !== undefined && !view.last_user_text.includes(when.last_user_contains))
    return false;
  if (when.system_contains !== undefined && !view.system.includes(when.system_contains)) return false;
  if (when.has_tool !== undefined && !view.tools.has(when.has_tool)) return false;
  const contains = when.tool_result_contains;
  if (contains !== undefined && !view.tool_results.some((r) => r.content.includes(contains))) return false;
  if (
    when.tool_result_error !== undefined &&
    view.tool_results.some((r) => r.is_error) !== when.tool_result_error
  )
    return false;
  return true;
}

/** Fills `{{name}}` from `vars`; an unknown name is a miss, never silently left in. */
function fill(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined)
      throw new ScriptMiss(
        'script_variable',
        `the script uses {{${name}}}, which this trial does not define (known: ${Object.keys(vars).join(', ')})`,
      );
    return value;
  });
}

function fillDeep(value: unknown, vars: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}

/**
 * One trial's conversation with a script. For request n the answer is: an unused entry with
 * `turn: n`; else the first unused entry whose `when` holds; else the next unused plain entry (no
 * `turn`, no `when`) in file order; else `fallback`; else a `script_exhausted` miss.
 */
export class ScriptedConversation {
  private requests = 0;
  private readonly used = new Set<number>();

  constructor(
    private readonly script: ModelScript,
    private readonly vars: Readonly<Record<string, string>>,
  ) {}

  answer(view: RequestView): ScriptAnswer {
    const n = ++this.requests;
    const turns = this.script.turns;
    const open = (i: number) => !this.used.has(i);
    let index = turns.findIndex((t, i) => open(i) && t.turn === n);
    if (index === -1)
      index = turns.findIndex(
        (t, i) => open(i) && t.turn === undefined && t.when !== undefined && matches(t.when, view),
      );
    if (index === -1)
      index = turns.findIndex((t, i) => open(i) && t.turn === undefined && t.when === undefined);
    const entry = index === -1 ? this.script.fallback : turns[index];
    if (entry === undefined)
      throw new ScriptMiss(
        'script_exhausted',
        `request ${n} (${view.api}, model ${view.model || '?'}) matches no entry of the script${this.script.name === undefined ? '' : ` "${this.script.name}"`} and it has no fallback; last user text: ${JSON.stringify(view.last_user_text.slice(0, 120))}`,
      );
    if (index !== -1 && !entry.repeat) this.used.add(index);
    return this.render(entry, n, index === -1 ? 'fallback' : `turns[${index}]`);
  }

  private render(entry: ScriptTurn, n: number, label: string): ScriptAnswer {
    if (entry.hang) return { kind: 'hang' };
    const delayMs = entry.delay_ms ?? 0;
    if (entry.error !== undefined) return { kind: 'error', ...entry.error, delayMs };
    const vars = { ...this.vars, turn: String(n) };
    const turn: ModelTurn = {
      ...(entry.text === undefined ? {} : { text: fill(entry.text, vars) }),
      ...(entry.reasoning === undefined ? {} : { reasoning: fill(entry.reasoning, vars) }),
      tool_calls: entry.tool_calls.map((call) => ({
        name: call.name,
        input: fillDeep(call.input, vars),
        ...(call.id === undefined ? {} : { id: call.id }),
      })),
      ...(entry.stop_reason === undefined ? {} : { stop_reason: entry.stop_reason }),
      usage: usageOf(this.script, entry.usage),
    };
    return { kind: 'turn', turn, delayMs, entry: label };
  }
}
