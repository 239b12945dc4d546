import { HarnessEvalError } from '../core/errors.ts';
import type { SandboxBackendName } from '../core/sandbox-config.ts';
import { findExecutable } from '../util/find-executable.ts';
import { runCommand } from '../util/run-command.ts';
import { BwrapSandbox } from './bwrap.ts';
import { ContainerSandbox, type ContainerSpec } from './container.ts';
import { NoSandbox } from './none.ts';
import type { SandboxV1 } from './types.ts';

export type Availability = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const checked = new Map<SandboxBackendName, Promise<Availability>>();

/** Whether a backend can run here; the reason in plain words when it cannot. Checked once per process. */
export function sandboxAvailability(backend: SandboxBackendName): Promise<Availability> {
  let result = checked.get(backend);
  if (result === undefined) {
    result = probe(backend);
    checked.set(backend, result);
  }
  return result;
}

async function probe(backend: SandboxBackendName): Promise<Availability> {
  switch (backend) {
    case 'none':
      return { ok: true };
    case 'bwrap': {
      if (process.platform !== 'linux') return { ok: false, reason: 'bwrap (bubblewrap) runs only on Linux' };
      const bwrap = findExecutable('bwrap');
      if (bwrap === undefined)
        return { ok: false, reason: 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)' };
      // User namespaces may be disabled (a container without privileges, a hardened kernel).
      const run = await runCommand({
        argv: [bwrap, '--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', '--', 'true'],
        cwd: '/',
        env: { PATH: process.env['PATH'] ?? '' },
        timeoutMs: 10_000,
      });
      return run.exitCode === 0
        ? { ok: true }
        : {
            ok: false,
            reason: `bwrap cannot create namespaces here: ${run.outputTail.trim() || run.spawnError || `exit ${run.exitCode}`}`,
          };
    }
    case 'docker':
    case 'podman': {
      const engine = findExecutable(backend);
      if (engine === undefined) return { ok: false, reason: `${backend} is not installed` };
      const run = await runCommand({
        argv: [engine, 'info', '--format', '{{.ServerVersion}}'],
        cwd: '/',
        env: process.env,
        timeoutMs: 15_000,
      });
      return run.exitCode === 0
        ? { ok: true }
        : {
            ok: false,
            reason: `${backend} is installed but no engine answers (${run.outputTail.trim().split('\n')[0] ?? ''})`,
          };
    }
    default: {
      const never: never = backend;
      return never;
    }
  }
}

/** A sandbox of the named backend; throws `invalid_config` with the reason when it cannot run here. */
export async function createSandbox(backend: SandboxBackendName, spec: ContainerSpec): Promise<SandboxV1> {
  const available = await sandboxAvailability(backend);
  if (!available.ok)
    throw new HarnessEvalError('invalid_config', `sandbox backend ${backend}: ${available.reason}`);
  switch (backend) {
    case 'none':
      return new NoSandbox(spec);
    case 'bwrap': {
      const prlimit = findExecutable('prlimit') ?? '/usr/bin/prlimit';
      if (
        (spec.memoryMb !== undefined || spec.cpuSeconds !== undefined) &&
        findExecutable('prlimit') === undefined
      )
        throw new HarnessEvalError(
          'invalid_config',
          'sandbox memory_mb / cpu_seconds need prlimit (util-linux)',
        );
      return new BwrapSandbox(spec, {
        bwrap: findExecutable('bwrap') ?? 'bwrap',
        prlimit,
        node: process.execPath,
      });
    }
    case 'docker':
    case 'podman':
      return new ContainerSandbox(backend, spec, findExecutable(backend) ?? backend);
    default: {
      const never: never = backend;
      return never;
    }
  }
}
