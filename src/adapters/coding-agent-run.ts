import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { type AgentOutput, AgentOutputSchema } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { findExecutable } from '../util/find-executable.ts';
import { abortedOutput, failedOutput } from './agent-result.ts';
import { runFailure, runSubprocess, type SubprocessSpec } from './subprocess.ts';
import type { ParsedTranscript } from './transcript.ts';
import type { AdapterEnvironment, TrialContext } from './types.ts';

/** Options every coding-agent CLI adapter shares. */
export interface CodingAgentProcessOptions {
  readonly env: Record<string, string>;
  readonly inherit_env: readonly string[];
  readonly max_output_bytes: number;
}

/** Where a sandboxed CLI's per-trial home is seen: in the sandbox's private /tmp. */
export const SANDBOXED_HOME = '/tmp/harnesseval-agent-home';

/**
 * A per-trial home for a CLI (its `HOME` and its own config folder), so trials never share
 * sessions, caches or credentials, and the CLI's own transcript can be read back after the run.
 * In a sandbox the home is copied in before the run and back out after it, so the same files are
 * read on the host either way.
 */
export interface AgentHome {
  /** The home on the host: write config here before `enter`, read transcripts after `leave`. */
  readonly host: string;
  /** The home as the CLI sees it (its `HOME`). */
  readonly seen: string;
  /** Makes the host home the CLI's (copies it into the sandbox). */
  enter(): Promise<void>;
  /** The command to spawn: wrapped by the trial's sandbox when it has one. */
  spawn(spec: SubprocessSpec): SubprocessSpec;
  /** Brings the CLI's home back to the host (a sandbox's copy); safe when the CLI wrote nothing. */
  leave(): Promise<void>;
  remove(): Promise<void>;
}

export async function agentHome(prefix: string, ctx: TrialContext): Promise<AgentHome> {
  const dir = await mkdtemp(join(tmpdir(), `harnesseval-${prefix}-`));
  const host = join(dir, 'home');
  await mkdir(host, { recursive: true });
  const remove = () => rm(dir, { recursive: true, force: true });
  const sandbox = ctx.sandbox;
  // A sandbox that shows host paths as they are (backend `none`) needs no copy: the host home is the CLI's.
  if (sandbox === undefined || sandbox.seesHostPaths)
    return { host, seen: host, enter: async () => {}, spawn: (spec) => spec, leave: async () => {}, remove };
  return {
    host,
    seen: SANDBOXED_HOME,
    enter: () => sandbox.copyIn(host, SANDBOXED_HOME),
    spawn(spec) {
      // Inside, the CLI starts in the workspace as the sandbox shows it (Harbor's /app), by its real
      // file: a PATH entry reached through a symlinked folder would dangle there (installPaths).
      const command = realExecutable(spec.command, spec.env['PATH']) ?? spec.command;
      const wrapped = sandbox.command([command, ...spec.args], { cwd: ctx.workspace, env: spec.env });
      return { ...spec, label: spec.label ?? spec.command, ...wrapped };
    },
    leave: () => sandbox.copyOut(SANDBOXED_HOME, host).catch(() => {}),
    remove,
  };
}

/**
 * What of a CLI's install a sandbox must show read-only: the `node_modules` folder its real file
 * lies in (so the platform packages beside it come too; else its folder), and the folder of the
 * name found on PATH when that is a link from elsewhere. Nothing when it cannot be found here.
 */
export function installPaths(command: string, path: string | undefined): string[] {
  const found = foundExecutable(command, path);
  const real = realExecutable(command, path);
  if (found === undefined || real === undefined) return [];
  const parts = real.split(sep);
  const modules = parts.lastIndexOf('node_modules');
  const install = modules > 0 ? parts.slice(0, modules + 1).join(sep) : dirname(real);
  const linked = dirname(found);
  return linked === install || linked.startsWith(`${install}${sep}`) ? [install] : [install, linked];
}

function foundExecutable(command: string, path: string | undefined): string | undefined {
  return isAbsolute(command) ? command : findExecutable(command, path ?? '');
}

/** The file a command names once PATH and every symlink are resolved; undefined when not found here. */
export function realExecutable(command: string, path: string | undefined): string | undefined {
  const found = foundExecutable(command, path);
  if (found === undefined) return undefined;
  try {
    return realpathSync(found);
  } catch {
    return undefined;
  }
}

/** A command named with a slash is relative to the harness file; a bare name is looked up on PATH. */
export function resolveCommand(command: string, baseDir: string): string {
  return !isAbsolute(command) && command.includes('/') ? resolve(baseDir, command) : command;
}

/**
 * The child's environment: PATH, the names the adapter passes through by default and those the
 * config adds (`inherit_env`), the config's `env` (with `${VAR}` expanded), the CLI's own settings,
 * and last the trial's (the gateway route, the events file).
 */
export function childEnvironment(
  options: CodingAgentProcessOptions,
  environment: AdapterEnvironment,
  passThrough: readonly string[],
  own: Record<string, string>,
  ctx: TrialContext,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'LANG', 'TZ', ...passThrough, ...options.inherit_env]) {
    const value = environment.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, template] of Object.entries(options.env))
    env[name] = expandEnvTemplate(template, environment.env, `env.${name}`);
  return { ...env, ...own, ...ctx.env };
}

/**
 * A trial's run that never throws: what goes wrong before or around the CLI (an unset `${VAR}` in
 * `env`, a per-trial home that cannot be made) is the trial's error, `config` for a misconfiguration.
 */
export async function containedRun(run: () => Promise<AgentOutput>): Promise<AgentOutput> {
  try {
    return await run();
  } catch (error) {
    const config = HarnessEvalError.is(error) && error.code === 'invalid_config';
    return failedOutput(config ? 'config' : 'agent', errorMessage(error));
  }
}

/**
 * Runs a coding-agent CLI and turns its event stream into an output. What the stream showed is
 * kept on failure too: a trial that timed out still has the calls and tool uses it made.
 */
export async function runCodingAgent(
  spec: SubprocessSpec,
  ctx: TrialContext,
  options: {
    readonly maxOutputBytes: number;
    readonly parse: (lines: readonly string[]) => Promise<ParsedTranscript>;
  },
): Promise<AgentOutput> {
  if (ctx.signal.aborted) return abortedOutput(ctx.signal);
  const result = await runSubprocess(spec, { signal: ctx.signal, maxOutputBytes: options.maxOutputBytes });
  if (result.spawnError !== undefined || result.overflow)
    return runFailure(result, spec, ctx.signal, options.maxOutputBytes) ?? failedOutput('crash', 'no output');
  const parsed = await options.parse(result.stdout.toString('utf8').split('\n'));
  const { latency } = result;
  let failure: AgentOutput | undefined;
  if (ctx.signal.aborted) failure = abortedOutput(ctx.signal, { latency });
  else if (parsed.error !== undefined)
    failure = failedOutput(parsed.error.kind, parsed.error.message, { latency });
  else if (!parsed.finished)
    failure =
      runFailure(result, spec, ctx.signal, options.maxOutputBytes) ??
      failedOutput('invalid_output', `${spec.command} ended without its final event`, { latency });
  return transcriptOutput(parsed, failure, result.latency, {
    exit_code: result.exitCode,
    ...(result.killedBy === null ? {} : { signal: result.killedBy }),
    ...(failure === undefined || result.stderrTail === '' ? {} : { stderr_tail: result.stderrTail }),
  });
}

/**
 * The output of a run whose events were parsed: what the stream showed is kept even when the run
 * failed (a trial that timed out still has the calls and tool uses it made).
 */
export function transcriptOutput(
  parsed: ParsedTranscript,
  failure: AgentOutput | undefined,
  latency: number,
  processMetadata: Record<string, unknown>,
): AgentOutput {
  return AgentOutputSchema.parse({
    output: failure === undefined ? parsed.output : null,
    latency,
    tool_calls: parsed.toolCalls,
    usage: parsed.usage,
    trace: parsed.trace,
    metadata: { ...parsed.metadata, ...processMetadata },
    ...(failure === undefined ? {} : { error: failure.error, error_kind: failure.error_kind }),
  });
}

/**
 * The lines of every file under `dir` whose name `match`es (a CLI's own transcripts), in name
 * order, up to `maxBytes` in all; a missing folder is no lines.
 */
export async function readTranscriptTree(
  dir: string,
  match: (name: string) => boolean,
  maxBytes: number,
): Promise<string[]> {
  const lines: string[] = [];
  let bytes = 0;
  const walk = async (at: string, depth: number): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < 4) await walk(path, depth + 1);
      else if (entry.isFile() && match(entry.name) && bytes < maxBytes) {
        const text = await readFile(path, 'utf8').catch(() => '');
        bytes += text.length;
        lines.push(...text.split('\n'));
      }
    }
  };
  await walk(dir, 0);
  return lines;
}
