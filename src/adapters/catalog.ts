import { z } from 'zod';
import { AcpOptionsSchema, ClaudeCodeOptionsSchema, CodexOptionsSchema } from './coding-agent-options.ts';

/**
 * Names and option schemas of the built-in adapters. Implementations load lazily so that
 * validating a file never starts an HTTP client or the MCP SDK.
 */
const env = z.record(z.string(), z.string()).default({});
/** Seconds the adapter waits for a trace file / events after a trial (OpenTelemetry ingestion). */
const traceFile = z.string().optional();

const functionOptions = z
  .object({
    /** `./path/to/file.ts#exportName` (or `path:export`), relative to the file that names it. */
    module: z.string().min(1),
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const adapterOptionSchemas = {
  function: functionOptions,
  /** The seed-000 name for an in-process agent; same options as `function`. */
  generic: functionOptions,
  http: z
    .object({
      url: z.string().url(),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH']).default('POST'),
      /** Header values may reference `${ENV_VAR}`; the expanded values are never stored. */
      headers: z.record(z.string(), z.string()).default({}),
      /** JSON body; the string `"{{input}}"` anywhere in it is replaced by the task input. */
      body: z.unknown().default({ input: '{{input}}' }),
      /** JSONPath (RFC 9535) selecting the output in the JSON response; whole body when absent. */
      output_path: z.string().optional(),
      tool_calls_path: z.string().optional(),
      usage_path: z.string().optional(),
      /** JSONPath to an array of harness events (the event protocol) in the response. */
      events_path: z.string().optional(),
      trace_file: traceFile,
    })
    .strict(),
  cli: z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      /** `stdin`, or `arg` to substitute `{{input}}` in `args`. */
      input: z.enum(['stdin', 'arg']).default('stdin'),
      output: z.enum(['text', 'json']).default('text'),
      env,
      cwd: z.string().optional(),
      /** Environment variables passed through from the parent (PATH and HOME always are). */
      inherit_env: z.array(z.string()).default([]),
      max_output_bytes: z
        .number()
        .int()
        .positive()
        .default(10 * 1024 * 1024),
      trace_file: traceFile,
    })
    .strict(),
  mcp: z
    .object({
      command: z.string().optional(),
      args: z.array(z.string()).default([]),
      env,
      cwd: z.string().optional(),
      url: z.string().url().optional(),
      /** When the task input is text rather than `{tool, arguments}`: the tool to call with it. */
      default_tool: z.string().optional(),
      /** The argument name that receives a text input for `default_tool`. */
      input_argument: z.string().default('input'),
      startup_timeout_seconds: z.number().positive().default(20),
      /**
       * `run`: one server for the whole run (stateless servers); `trial`: a fresh server for each
       * trial, so a stateful one starts clean and concurrent trials do not share its state.
       */
      lifecycle: z.enum(['run', 'trial']).default('run'),
    })
    .strict()
    .refine((o) => (o.command === undefined) !== (o.url === undefined), {
      message: 'give exactly one of `command` (stdio) or `url` (streamable HTTP)',
    })
    .refine((o) => o.lifecycle !== 'trial' || o.command !== undefined, {
      message: '`lifecycle: trial` starts a server for each trial, so it needs `command` (not `url`)',
      path: ['lifecycle'],
    }),
  /** Harbor's oracle: runs the task's own solution/solve.sh in the sandbox (is every task solvable?). */
  oracle: z.object({}).strict(),
  'claude-code': ClaudeCodeOptionsSchema,
  codex: CodexOptionsSchema,
  acp: AcpOptionsSchema,
} as const;

export type BuiltinAdapterName = keyof typeof adapterOptionSchemas;
export type AdapterOptions<N extends BuiltinAdapterName> = z.infer<(typeof adapterOptionSchemas)[N]>;
export const builtinAdapterNames = Object.keys(adapterOptionSchemas) as BuiltinAdapterName[];

export function isBuiltinAdapter(name: string): name is BuiltinAdapterName {
  return Object.hasOwn(adapterOptionSchemas, name);
}
