import { z } from 'zod';

/** Option schemas of the coding-agent adapters (`claude-code`, `codex`, `acp`); cheap to load. */

const processOptions = {
  /** Extra environment for the CLI; values may reference `${ENV_VAR}` (expanded, never stored). */
  env: z.record(z.string(), z.string()).default({}),
  /** More environment variables passed through from HarnessEval's own environment. */
  inherit_env: z.array(z.string()).default([]),
  /** Arguments appended as they are (an option this schema does not name). */
  extra_args: z.array(z.string()).default([]),
  max_output_bytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
};

/** An MCP server the agent may use: a stdio command, or a streamable HTTP / SSE URL. */
export const McpServerSchema = z.union([
  z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
    })
    .strict(),
  z
    .object({
      type: z.enum(['http', 'sse']).default('http'),
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).default({}),
    })
    .strict(),
]);
export type McpServer = z.infer<typeof McpServerSchema>;

export const ClaudeCodeOptionsSchema = z
  .object({
    /** The `claude` binary: a name on PATH, or a path relative to the harness file. */
    command: z.string().min(1).default('claude'),
    model: z.string().min(1).optional(),
    max_turns: z.number().int().positive().optional(),
    max_budget_usd: z.number().positive().optional(),
    allowed_tools: z.array(z.string().min(1)).default([]),
    disallowed_tools: z.array(z.string().min(1)).default([]),
    /** Claude Code's permission mode; headless evaluation has no one to answer a prompt. */
    permission_mode: z
      .enum(['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan'])
      .default('bypassPermissions'),
    append_system_prompt: z.string().optional(),
    system_prompt: z.string().optional(),
    /** A CLAUDE.md (relative to the harness file) installed as the trial's user memory, not in the workspace. */
    claude_md: z.string().min(1).optional(),
    /** Settings JSON given with `--settings` (hooks, env, permissions). */
    settings: z.record(z.string(), z.unknown()).optional(),
    /** Sub-agent definitions given with `--agents`. */
    agents: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    mcp_servers: z.record(z.string(), McpServerSchema).default({}),
    ...processOptions,
  })
  .strict();
export type ClaudeCodeOptions = z.infer<typeof ClaudeCodeOptionsSchema>;

const TomlValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const CodexOptionsSchema = z
  .object({
    /** The `codex` binary: a name on PATH, or a path relative to the harness file. */
    command: z.string().min(1).default('codex'),
    model: z.string().min(1).optional(),
    profile: z.string().min(1).optional(),
    sandbox: z.enum(['read-only', 'workspace-write', 'danger-full-access']).default('workspace-write'),
    /** `--dangerously-bypass-approvals-and-sandbox`: only where the trial is isolated already. */
    bypass_sandbox: z.boolean().default(false),
    /** `-c key=value` overrides of `config.toml` (values written as TOML). */
    config: z.record(z.string(), TomlValue).default({}),
    /** Names are TOML bare keys (letters, digits, `_`, `-`): they become `-c mcp_servers.NAME.*`. */
    mcp_servers: z
      .record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'a TOML bare key'), McpServerSchema)
      .default({}),
    ...processOptions,
  })
  .strict();
export type CodexOptions = z.infer<typeof CodexOptionsSchema>;

export const AcpOptionsSchema = z
  .object({
    /** The ACP agent to start (e.g. `gemini --experimental-acp`, `npx claude-code-acp`). */
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** How `session/request_permission` is answered; each request counts as a human touchpoint. */
    permission: z.enum(['allow', 'deny', 'cancel']).default('allow'),
    mcp_servers: z.record(z.string(), McpServerSchema).default({}),
    startup_timeout_seconds: z.number().positive().default(30),
    ...processOptions,
  })
  .strict();
export type AcpOptions = z.infer<typeof AcpOptionsSchema>;
