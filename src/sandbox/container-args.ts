import type { SandboxNetwork } from '../core/sandbox-config.ts';
import type { SandboxMount } from './types.ts';

/** What the engine CLI builds a trial's container from. */
export interface ContainerPlan {
  readonly name: string;
  readonly image: string;
  readonly mounts: readonly SandboxMount[];
  readonly network: SandboxNetwork;
  readonly workdir: string;
  readonly memoryMb?: number | undefined;
  readonly cpuSeconds?: number | undefined;
}

/**
 * `docker|podman run`: a detached container that idles until commands are executed in it.
 * `--init` reaps orphans; `loopback` is `--network none` plus the bridge folder (see LoopbackBridge).
 */
export function containerRunArgs(plan: ContainerPlan): string[] {
  const args = [
    'run',
    '--detach',
    '--init',
    '--name',
    plan.name,
    '--network',
    plan.network === 'host' ? 'host' : 'none',
  ];
  if (plan.memoryMb !== undefined) args.push('--memory', `${plan.memoryMb}m`);
  if (plan.cpuSeconds !== undefined) args.push('--ulimit', `cpu=${plan.cpuSeconds}`);
  for (const mount of plan.mounts)
    args.push('--volume', `${mount.host}:${mount.target}${mount.writable ? '' : ':ro'}`);
  args.push('--workdir', plan.workdir, '--entrypoint', 'sleep', plan.image, 'infinity');
  return args;
}

/** `docker|podman build`: the task's environment/ folder as the build context. */
export function containerBuildArgs(tag: string, context: string): string[] {
  return ['build', '--tag', tag, context];
}

/**
 * `docker|podman exec`: environment variables are passed by name only (`-e NAME`), so their
 * values come from the client's environment and never appear in a process listing.
 */
export function containerExecArgs(
  name: string,
  argv: readonly string[],
  cwd: string,
  envNames: readonly string[],
): string[] {
  const args = ['exec', '--interactive', '--workdir', cwd];
  for (const env of envNames) args.push('--env', env);
  args.push(name, ...argv);
  return args;
}

/** `docker|podman cp`: a folder's contents (`SRC/.`) land inside the target, like `cp -r`. */
export function containerCopyInArgs(name: string, host: string, target: string, isDir: boolean): string[] {
  return ['cp', isDir ? `${host}/.` : host, `${name}:${target}`];
}

export function containerCopyOutArgs(name: string, target: string, host: string): string[] {
  return ['cp', `${name}:${target}`, host];
}

export function containerRemoveArgs(name: string): string[] {
  return ['rm', '--force', name];
}
