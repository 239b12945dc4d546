import { z } from 'zod';
import type { TaskInput } from '../core/task.ts';
import type { AdapterOptions } from './catalog.ts';

type McpOptions = AdapterOptions<'mcp'>;

/** One tool call of a trial. */
export interface PlannedCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export type CallPlan = { ok: true; calls: readonly PlannedCall[] } | { ok: false; message: string };

/** A task input that names the tool itself: `{tool: hello_world, arguments: {name: Ada}}`. */
const DirectCallSchema = z
  .object({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })
  .strict();

/** A script of calls on one server, in order: `{steps: [{tool, arguments}, ...]}`. */
const StepsSchema = z.object({ steps: z.array(DirectCallSchema).min(1).max(100) }).strict();

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
}

/**
 * Which tool calls a task input makes: `{tool, arguments}` is one call, `{steps: [...]}` a script
 * of calls made in order on the same server (stopping at the first that fails), and text (or an
 * object without `tool`) calls `default_tool` with it.
 */
export function planToolCalls(input: TaskInput, options: McpOptions): CallPlan {
  if (typeof input !== 'string' && 'steps' in input) {
    const parsed = StepsSchema.safeParse(input);
    if (!parsed.success)
      return {
        ok: false,
        message: `an MCP task input with \`steps\` must be \`{steps: [{tool, arguments?}, ...]}\`: ${issues(parsed.error)}`,
      };
    return { ok: true, calls: parsed.data.steps.map((s) => ({ tool: s.tool, args: s.arguments })) };
  }
  if (typeof input !== 'string' && 'tool' in input) {
    const parsed = DirectCallSchema.safeParse(input);
    if (parsed.success) return { ok: true, calls: [{ tool: parsed.data.tool, args: parsed.data.arguments }] };
    return {
      ok: false,
      message: `an MCP task input with \`tool\` must be \`{tool: string, arguments?: object}\` and nothing else: ${issues(parsed.error)}`,
    };
  }
  if (options.default_tool === undefined) {
    return {
      ok: false,
      message:
        'the MCP adapter needs a task input `{tool, arguments}` (or `{steps: [...]}`), or the option ' +
        '`default_tool` (with `input_argument`) to call a tool with a text input',
    };
  }
  const args = typeof input === 'string' ? { [options.input_argument]: input } : { ...input };
  return { ok: true, calls: [{ tool: options.default_tool, args }] };
}
