import { HarnessEvalError } from '../core/errors.ts';
import { splitCommand } from '../util/split-command.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { environmentProblem } from './environment-failure.ts';
import { binary, cannotJudge } from './result.ts';
import { runCommand } from './run-command.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.command;

/** Output kept from the end of the command's stdout + stderr. */
export const COMMAND_TAIL_BYTES = 4096;

/**
 * Runs a command in the trial's workspace (argv, never a shell); exit status 0 passes. Used for
 * automated acceptance criteria such as `npm test`. On timeout the whole process group is killed.
 */
export const command: EvaluatorDefinition<typeof options> = {
  name: 'command',
  description: 'a command run in the trial workspace exits with status 0',
  options,
  create(opts, environment) {
    const argv = typeof opts.command === 'string' ? splitCommand(opts.command) : opts.command;
    if (argv.length === 0) throw new HarnessEvalError('invalid_config', 'command: the command is empty');
    const shown = argv.join(' ');
    return evaluatorFrom('command', async ({ workspace, signal, sandbox }) => {
      if (workspace === undefined)
        return cannotJudge(`command "${shown}" needs a workspace, and this trial has none`);
      const request = {
        argv,
        cwd: workspace,
        timeoutMs: opts.timeout_seconds * 1000,
        signal,
        tailBytes: COMMAND_TAIL_BYTES,
      };
      const run =
        sandbox === undefined
          ? await runCommand({ ...request, env: environment.env })
          : await sandbox.exec({ ...request, env: definedEnv(environment.env) });
      const details = {
        command: argv,
        exit_code: run.exitCode,
        signal: run.signal,
        duration_seconds: run.durationSeconds,
        output_tail: run.outputTail,
      };
      // A check that could not run where it ran is the environment's fault, not a harness failure.
      const problem = environmentProblem(argv, run);
      if (problem !== undefined)
        return cannotJudge(`command "${shown}" could not run: ${problem}`, {
          ...details,
          error_kind: 'environment',
        });
      if (run.spawnError !== undefined)
        return cannotJudge(`command "${shown}" could not start: ${run.spawnError}`, details);
      if (run.timedOut) {
        return binary(
          false,
          `command "${shown}" timed out after ${opts.timeout_seconds} s and was killed`,
          details,
        );
      }
      if (run.aborted) return cannotJudge(`command "${shown}" was stopped: the trial was aborted`, details);
      if (run.exitCode === 0) return binary(true, `command "${shown}" exited with status 0`, details);
      const how =
        run.exitCode === null
          ? `was killed by ${run.signal ?? 'a signal'}`
          : `exited with status ${run.exitCode}`;
      return binary(false, `command "${shown}" ${how}`, details);
    });
  },
};

/** The environment as plain strings (a sandboxed command gets exactly these). */
function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
