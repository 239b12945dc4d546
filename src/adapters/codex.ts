import { mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { AgentOutput } from '../core/agent-output.ts';
import type { TaskInput } from '../core/task.ts';
import { parseCodexStream } from './codex-transcript.ts';
import { type CodexOptions, CodexOptionsSchema, type McpServer } from './coding-agent-options.ts';
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
import type { AdapterDefinition, AdapterEnvironment, TrialContext, TrialGateway } from './types.ts';

const PASS_THROUGH = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_API_KEY'];
/** The model provider the adapter defines for the gateway, and the variable holding its key. */
const GATEWAY_PROVIDER = 'harnesseval';
const GATEWAY_KEY_ENV = 'HARNESSEVAL_GATEWAY_KEY';
const MAX_ROLLOUT_BYTES = 32 * 1024 * 1024;

/** A `-c key=value` override; the value in TOML (JSON strings are valid TOML basic strings). */
function override(key: string, value: string | number | boolean | readonly string[]): string[] {
  return ['-c', `${key}=${JSON.stringify(value)}`];
}

function mcpOverrides(servers: Record<string, McpServer>): string[] {
  return Object.entries(servers).flatMap(([name, server]) => {
    const at = `mcp_servers.${name}`;
    if ('command' in server)
      return [
        ...override(`${at}.command`, server.command),
        ...override(`${at}.args`, server.args),
        ...Object.entries(server.env).flatMap(([k, v]) => override(`${at}.env.${k}`, v)),
      ];
    return override(`${at}.url`, server.url);
  });
}

/** The `codex exec` arguments; the prompt goes on stdin. With a gateway, a model provider pointing at it. */
export function codexArgs(options: CodexOptions, gateway: TrialGateway | undefined): string[] {
  const args = ['exec', '--json', '--skip-git-repo-check'];
  if (options.model !== undefined) args.push('-m', options.model);
  if (options.profile !== undefined) args.push('-p', options.profile);
  if (options.bypass_sandbox) args.push('--dangerously-bypass-approvals-and-sandbox');
  else args.push('-s', options.sandbox);
  if (gateway !== undefined) {
    const at = `model_providers.${GATEWAY_PROVIDER}`;
    args.push(
      ...override(`${at}.name`, GATEWAY_PROVIDER),
      ...override(`${at}.base_url`, gateway.openaiBaseUrl),
      ...override(`${at}.env_key`, GATEWAY_KEY_ENV),
      ...override(`${at}.wire_api`, 'responses'),
      ...override('model_provider', GATEWAY_PROVIDER),
    );
  }
  for (const [key, value] of Object.entries(options.config)) args.push(...override(key, value));
  args.push(...mcpOverrides(options.mcp_servers));
  // `-` reads the instructions from stdin (the task input may be too long for one argument).
  return [...args, ...options.extra_args, '-'];
}

/** The rollouts Codex wrote under `sessions/YYYY/MM/DD/`. */
function rolloutLines(codexHome: string): Promise<string[]> {
  return readTranscriptTree(
    join(codexHome, 'sessions'),
    (name) => name.startsWith('rollout-'),
    MAX_ROLLOUT_BYTES,
  );
}

async function runCodex(
  options: CodexOptions,
  environment: AdapterEnvironment,
  input: TaskInput,
  ctx: TrialContext,
): Promise<AgentOutput> {
  const home = await agentHome('codex', ctx);
  try {
    const codexHome = join(home.host, '.codex');
    await mkdir(codexHome, { recursive: true });
    await home.enter();
    const own = {
      HOME: home.seen,
      CODEX_HOME: posix.join(home.seen, '.codex'),
      ...(ctx.gateway === undefined ? {} : { [GATEWAY_KEY_ENV]: ctx.gateway.apiKey }),
    };
    const spec = home.spawn({
      command: resolveCommand(options.command, environment.baseDir),
      args: codexArgs(options, ctx.gateway),
      cwd: ctx.workspace ?? environment.baseDir,
      env: childEnvironment(options, environment, PASS_THROUGH, own, ctx),
      stdin: inputText(input),
    });
    return await runCodingAgent(spec, ctx, {
      maxOutputBytes: options.max_output_bytes,
      parse: async (lines) => {
        await home.leave();
        return parseCodexStream(lines, {
          rolloutLines: await rolloutLines(codexHome),
          ...(options.model === undefined ? {} : { model: options.model }),
        });
      },
    });
  } finally {
    await home.remove();
  }
}

export const codexAdapter: AdapterDefinition<typeof CodexOptionsSchema> = {
  name: 'codex',
  description: 'Codex CLI (`codex exec --json`) in the trial workspace, with a per-trial CODEX_HOME.',
  options: CodexOptionsSchema,
  create: async (options, environment) => ({
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'files',
    // In a sandbox, the CLI's install (its platform binary beside it) is shown read-only.
    sandboxPaths: installPaths(resolveCommand(options.command, environment.baseDir), environment.env['PATH']),
    run: (input, ctx) => containedRun(() => runCodex(options, environment, input, ctx)),
  }),
};
