import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { parseClaudeCodeStream } from './claude-code-transcript.ts';
import { type ClaudeCodeOptions, ClaudeCodeOptionsSchema, type McpServer } from './coding-agent-options.ts';
import {
  agentHome,
  childEnvironment,
  containedRun,
  installPaths,
  readTranscriptTree,
  resolveCommand,
  runCodingAgent,
} from './coding-agent-run.ts';
import { inputText } from './input-template.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

/** Claude Code's own credentials and endpoint, passed through unless the gateway replaces them. */
const PASS_THROUGH = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'];

/** The most session-transcript text read back (the per-message usage lives there). */
const MAX_SESSION_BYTES = 32 * 1024 * 1024;

function mcpConfig(servers: Record<string, McpServer>): string {
  return JSON.stringify({ mcpServers: servers });
}

/** The `claude -p` arguments for these options; the prompt goes on stdin. */
export function claudeCodeArgs(options: ClaudeCodeOptions): string[] {
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-mode',
    options.permission_mode,
  ];
  if (options.model !== undefined) args.push('--model', options.model);
  if (options.max_turns !== undefined) args.push('--max-turns', String(options.max_turns));
  if (options.max_budget_usd !== undefined) args.push('--max-budget-usd', String(options.max_budget_usd));
  if (options.allowed_tools.length > 0) args.push('--allowedTools', options.allowed_tools.join(','));
  if (options.disallowed_tools.length > 0) args.push('--disallowedTools', options.disallowed_tools.join(','));
  if (options.system_prompt !== undefined) args.push('--system-prompt', options.system_prompt);
  if (options.append_system_prompt !== undefined)
    args.push('--append-system-prompt', options.append_system_prompt);
  if (Object.keys(options.mcp_servers).length > 0)
    args.push('--mcp-config', mcpConfig(options.mcp_servers), '--strict-mcp-config');
  if (options.settings !== undefined) args.push('--settings', JSON.stringify(options.settings));
  if (options.agents !== undefined) args.push('--agents', JSON.stringify(options.agents));
  return [...args, ...options.extra_args];
}

/** Every `.jsonl` Claude Code wrote under `projects/` (the session and its sub-agents), bounded. */
function sessionLines(configDir: string): Promise<string[]> {
  return readTranscriptTree(
    join(configDir, 'projects'),
    (name) => name.endsWith('.jsonl'),
    MAX_SESSION_BYTES,
  );
}

async function runClaudeCode(
  options: ClaudeCodeOptions,
  environment: AdapterEnvironment,
  memory: string | undefined,
  input: TaskInput,
  ctx: TrialContext,
): Promise<AgentOutput> {
  const home = await agentHome('claude', ctx);
  try {
    const configDir = join(home.host, '.claude');
    await mkdir(configDir, { recursive: true });
    if (memory !== undefined) await writeFile(join(configDir, 'CLAUDE.md'), memory);
    await home.enter();
    const root = process.getuid?.() === 0;
    const own: Record<string, string> = {
      HOME: home.seen,
      CLAUDE_CONFIG_DIR: posix.join(home.seen, '.claude'),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // As root, Claude Code refuses bypassPermissions unless told it runs in a sandbox.
      ...(root && options.permission_mode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {}),
    };
    const spec = home.spawn({
      command: resolveCommand(options.command, environment.baseDir),
      args: claudeCodeArgs(options),
      cwd: ctx.workspace ?? environment.baseDir,
      env: childEnvironment(options, environment, PASS_THROUGH, own, ctx),
      stdin: inputText(input),
    });
    return await runCodingAgent(spec, ctx, {
      maxOutputBytes: options.max_output_bytes,
      parse: async (lines) => {
        await home.leave();
        return parseClaudeCodeStream(lines, { sessionLines: await sessionLines(configDir) });
      },
    });
  } finally {
    await home.remove();
  }
}

async function createClaudeCodeAgent(
  options: ClaudeCodeOptions,
  environment: AdapterEnvironment,
): Promise<AgentV1> {
  let memory: string | undefined;
  if (options.claude_md !== undefined) {
    const file = resolve(environment.baseDir, options.claude_md);
    try {
      memory = await readFile(file, 'utf8');
    } catch (error) {
      throw new HarnessEvalError('invalid_config', `claude_md: cannot read ${file}: ${errorMessage(error)}`);
    }
  }
  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    // What it did comes from its stream; an events file (HARNESSEVAL_EVENTS) is read as well.
    reports: 'files',
    // In a sandbox, the CLI's install is shown read-only.
    sandboxPaths: installPaths(resolveCommand(options.command, environment.baseDir), environment.env['PATH']),
    run: (input, ctx) => containedRun(() => runClaudeCode(options, environment, memory, input, ctx)),
  };
}

export const claudeCodeAdapter: AdapterDefinition<typeof ClaudeCodeOptionsSchema> = {
  name: 'claude-code',
  description:
    'Claude Code (`claude -p`, stream-json) in the trial workspace, with a per-trial config folder.',
  options: ClaudeCodeOptionsSchema,
  create: createClaudeCodeAgent,
};
