/**
 * An agent for the built-in `function` adapter (no registration needed):
 *   agent: { adapter: function, module: ./shout-agent.ts#shout }
 * It gets the task input and a context (signal, options, trackers). It may return a string, any
 * JSON value, or an AgentOutput draft `{ output, tool_calls?, usage?, ... }`; a throw becomes an
 * errored trial (`error_kind: agent`, or `transient` for `{ transient: true }` / HTTP 429 and 5xx).
 */
import type { FunctionAgentContext, TaskInput } from 'harnesseval/plugin';

export async function shout(input: TaskInput, context: FunctionAgentContext) {
  if (context.signal.aborted) throw new Error('aborted before start');
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  if (text.trim() === '') throw new Error('nothing to shout');
  return { output: `${text.toUpperCase()}, please!`, tool_calls: [{ tool_name: 'shout', args: { text } }] };
}
