import { runCommand } from '../util/run-command.ts';
import type { ExecRequest, ExecResult, SandboxV1 } from './types.ts';

/** `exec` for a backend whose commands are wrapped command lines: run the wrapper and wait. */
export function execWrapped(sandbox: Pick<SandboxV1, 'command'>, request: ExecRequest): Promise<ExecResult> {
  const wrapped = sandbox.command(request.argv, { cwd: request.cwd, env: { ...request.env } });
  return runCommand({
    argv: [wrapped.command, ...wrapped.args],
    cwd: wrapped.cwd,
    env: wrapped.env,
    timeoutMs: request.timeoutMs,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.tailBytes === undefined ? {} : { tailBytes: request.tailBytes }),
  });
}
