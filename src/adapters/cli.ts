import { isAbsolute, resolve } from 'node:path';
import { type AgentOutput, AgentOutputSchema } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { abortedOutput, failedOutput, normalizeAgentResult } from './agent-result.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import { fillText, INPUT_PLACEHOLDER, inputText } from './input-template.ts';
import { runFailure, runSubprocess, type SubprocessSpec } from './subprocess.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type CliOptions = AdapterOptions<'cli'>;

/** The fixed part of the child's environment: PATH, HOME, inherited names and `env` (expanded). */
function baseEnvironment(options: CliOptions, environment: AdapterEnvironment): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', ...options.inherit_env]) {
    const value = environment.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, template] of Object.entries(options.env)) {
    env[name] = expandEnvTemplate(template, environment.env, `env.${name}`);
  }
  return env;
}

/** A relative command with a slash (`./agent.sh`) is relative to the config file, not the cwd. */
function resolveCommand(command: string, baseDir: string): string {
  return !isAbsolute(command) && command.includes('/') ? resolve(baseDir, command) : command;
}

type Invocation = SubprocessSpec;

/** Runs the harness once; always resolves, and only after its whole process group is gone. */
async function runProcess(
  invocation: Invocation,
  options: CliOptions,
  ctx: TrialContext,
): Promise<AgentOutput> {
  const result = await runSubprocess(invocation, {
    signal: ctx.signal,
    maxOutputBytes: options.max_output_bytes,
  });
  const failure = runFailure(result, invocation, ctx.signal, options.max_output_bytes);
  if (failure !== undefined) return failure;
  const metadata = { exit_code: result.exitCode };
  return parseOutput(result.stdout.toString('utf8'), options, result.latency, metadata);
}

function parseOutput(
  text: string,
  options: CliOptions,
  latency: number,
  metadata: Record<string, unknown>,
): AgentOutput {
  if (options.output === 'text') {
    return AgentOutputSchema.parse({ output: text.replace(/\r?\n$/, ''), latency, metadata });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return failedOutput('invalid_output', `stdout is not valid JSON: ${errorMessage(error)}`, {
      latency,
      metadata,
    });
  }
  return normalizeAgentResult(parsed, latency, metadata);
}

function invocationFor(
  options: CliOptions,
  environment: AdapterEnvironment,
  fixedEnv: Record<string, string>,
  input: TaskInput,
  ctx: TrialContext,
): Invocation {
  const invocation = hostInvocation(options, environment, fixedEnv, input, ctx);
  if (ctx.sandbox === undefined) return invocation;
  // Inside the sandbox the harness starts in the workspace, whatever `cwd` says of the host.
  const wrapped = ctx.sandbox.command([invocation.command, ...invocation.args], {
    cwd: ctx.workspace,
    env: invocation.env,
  });
  return { ...invocation, command: wrapped.command, args: wrapped.args, cwd: wrapped.cwd, env: wrapped.env };
}

function hostInvocation(
  options: CliOptions,
  environment: AdapterEnvironment,
  fixedEnv: Record<string, string>,
  input: TaskInput,
  ctx: TrialContext,
): Invocation {
  const byArg = options.input === 'arg';
  const command = resolveCommand(options.command, environment.baseDir);
  return {
    label: command,
    command,
    args: byArg ? options.args.map((arg) => fillText(arg, input)) : options.args,
    cwd:
      options.cwd === undefined
        ? (ctx.workspace ?? environment.baseDir)
        : resolve(environment.baseDir, options.cwd),
    // ctx.env last: it carries HARNESSEVAL_EVENTS and the like for this trial.
    env: { ...fixedEnv, ...ctx.env },
    stdin: byArg ? '' : inputText(input),
  };
}

async function createCliAgent(options: CliOptions, environment: AdapterEnvironment): Promise<AgentV1> {
  const fixedEnv = baseEnvironment(options, environment);
  if (options.input === 'arg' && !options.args.some((arg) => arg.includes(INPUT_PLACEHOLDER))) {
    throw new HarnessEvalError(
      'invalid_config',
      `input: arg needs an argument containing ${INPUT_PLACEHOLDER}`,
    );
  }
  const command = resolveCommand(options.command, environment.baseDir);
  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'files',
    // A harness script is read inside a sandbox; a bare name is found on the sandbox's PATH.
    sandboxPaths: isAbsolute(command) ? [command] : [],
    run: async (input, ctx) =>
      ctx.signal.aborted
        ? abortedOutput(ctx.signal)
        : runProcess(invocationFor(options, environment, fixedEnv, input, ctx), options, ctx),
  };
}

export const cliAdapter: AdapterDefinition<typeof adapterOptionSchemas.cli> = {
  name: 'cli',
  description: 'A harness run as a subprocess (argv, never a shell): input on stdin or as an argument.',
  options: adapterOptionSchemas.cli,
  create: createCliAgent,
};
