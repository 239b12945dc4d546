import { describe, expect, it } from 'vitest';
import { ModelScriptSchema } from '../../../src/formats/model-script.ts';
import type { RequestView } from '../../../src/gateway/protocol.ts';
import { ScriptedConversation, ScriptMiss } from '../../../src/gateway/scripted-model.ts';

const view = (over: Partial<RequestView> = {}): RequestView => ({
  api: 'anthropic-messages',
  model: 'm',
  stream: false,
  tools: new Map([['Bash', 'tool']]),
  system: 'You are a coding agent.',
  last_user_text: 'fix it',
  tool_results: [],
  message_count: 1,
  ...over,
});

const textOf = (c: ScriptedConversation, v: RequestView = view()) => {
  const answer = c.answer(v);
  return answer.kind === 'turn' ? (answer.turn.text ?? '') : answer.kind;
};

describe('ScriptedConversation', () => {
  it('answers by turn number first, then by predicate, then plain entries in order, then the fallback', () => {
    const script = ModelScriptSchema.parse({
      turns: [
        { text: 'plain A' },
        { turn: 2, text: 'turn two' },
        { when: { tool_result_error: true }, text: 'an error came back' },
        { text: 'plain B' },
      ],
      fallback: { text: 'fallback' },
    });
    const c = new ScriptedConversation(script, {});
    const failed = view({ tool_results: [{ content: 'exit 1', is_error: true }] });
    expect([textOf(c), textOf(c, failed), textOf(c, failed), textOf(c), textOf(c)]).toEqual([
      'plain A',
      'turn two',
      'an error came back',
      'plain B',
      'fallback',
    ]);
  });

  it.each([
    [{ api: 'openai-chat' as const }, false],
    [{ model: 'm' }, true],
    [{ last_user_contains: 'fix' }, true],
    [{ system_contains: 'reviewer' }, false],
    [{ has_tool: 'Bash' }, true],
    [{ has_tool: 'Write' }, false],
    [{ tool_result_contains: 'boom' }, false],
    [{ tool_result_error: false }, true],
  ])('predicate %j on a plain request holds: %s', (when, holds) => {
    const script = ModelScriptSchema.parse({ turns: [{ when, text: 'matched' }], fallback: { text: 'no' } });
    expect(textOf(new ScriptedConversation(script, {}))).toBe(holds ? 'matched' : 'no');
  });

  it('repeats a `repeat: true` entry, and says which request ran out of script', () => {
    const script = ModelScriptSchema.parse({
      name: 's',
      turns: [{ when: { has_tool: 'Bash' }, repeat: true, text: 'again' }],
    });
    const c = new ScriptedConversation(script, {});
    expect([textOf(c), textOf(c)]).toEqual(['again', 'again']);
    expect(() => c.answer(view({ tools: new Map() }))).toThrow(ScriptMiss);
    expect(() => c.answer(view({ tools: new Map() }))).toThrow(
      /request 4 \(anthropic-messages, model m\) matches no entry of the script "s"/,
    );
  });

  it('fills templates in text and tool inputs, merges usage field by field, and scripts errors and hangs', () => {
    const script = ModelScriptSchema.parse({
      usage: { input_tokens: 10, output_tokens: 2 },
      turns: [
        {
          text: 'in {{workspace}} at {{turn}}',
          tool_calls: [{ name: 'Write', input: { file_path: '{{workspace}}/a', n: [1, '{{turn}}'] } }],
          usage: { output_tokens: 9 },
        },
        { error: { status: 529, type: 'overloaded_error', message: 'busy' }, delay_ms: 5 },
        { hang: true },
      ],
    });
    const c = new ScriptedConversation(script, { workspace: '/ws' });
    const first = c.answer(view());
    expect(first).toMatchObject({
      kind: 'turn',
      turn: {
        text: 'in /ws at 1',
        tool_calls: [{ name: 'Write', input: { file_path: '/ws/a', n: [1, '1'] } }],
        usage: { input_tokens: 10, output_tokens: 9, cache_read_tokens: 0 },
      },
    });
    expect(c.answer(view())).toEqual({
      kind: 'error',
      status: 529,
      type: 'overloaded_error',
      message: 'busy',
      delayMs: 5,
    });
    expect(c.answer(view())).toEqual({ kind: 'hang' });
  });

  it('rejects a turn that gives no answer', () => {
    expect(ModelScriptSchema.safeParse({ turns: [{ usage: {} }] }).success).toBe(false);
  });
});
