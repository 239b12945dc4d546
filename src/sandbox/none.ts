import { cp, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import { execWrapped } from './exec.ts';
import { hostPath, type PathMapping } from './paths.ts';
import type { ExecRequest, ExecResult, SandboxCommand, SandboxSpec, SandboxV1 } from './types.ts';

/**
 * No isolation: commands run on the host as they are. It keeps the interface (and the rule that
 * acceptance tests arrive only after the agent) for machines without bwrap or a container engine.
 * The workspace must be seen at its own path: there is nothing to remap other paths with.
 */
export class NoSandbox implements SandboxV1 {
  readonly specificationVersion = 'v1';
  readonly backend = 'none';
  readonly seesHostPaths = true;

  constructor(private readonly spec: SandboxSpec) {
    const ws = spec.workspace;
    const moved = [...(ws === undefined ? [] : [ws]), ...(spec.mounts ?? [])].find(
      (m) => m.host !== m.target,
    );
    if (moved !== undefined)
      throw new HarnessEvalError(
        'invalid_config',
        `sandbox backend none cannot show ${moved.host} at ${moved.target}; use bwrap, docker or podman`,
      );
  }

  async prepare(): Promise<void> {}

  command(
    argv: readonly string[],
    options: { cwd?: string | undefined; env: Record<string, string> },
  ): SandboxCommand {
    const [command = '', ...args] = argv;
    return {
      command,
      args,
      env: options.env,
      cwd: options.cwd ?? this.spec.workspace?.host ?? process.cwd(),
    };
  }

  exec(request: ExecRequest): Promise<ExecResult> {
    return execWrapped(this, request);
  }

  private mappings(): PathMapping[] {
    const ws = this.spec.workspace;
    return [...(ws === undefined ? [] : [ws]), ...(this.spec.mounts ?? [])];
  }

  async copyIn(host: string, target: string): Promise<void> {
    const destination = hostPath(this.mappings(), target);
    if (destination === undefined)
      throw new HarnessEvalError(
        'invalid_config',
        `sandbox backend none can copy only into the workspace, not to ${target}`,
      );
    await mkdir(dirname(destination), { recursive: true });
    await cp(host, destination, { recursive: true, force: true });
  }

  async copyOut(target: string, host: string): Promise<void> {
    const source = hostPath(this.mappings(), target) ?? target;
    await mkdir(dirname(host), { recursive: true });
    await cp(source, host, { recursive: true, force: true });
  }

  async destroy(): Promise<void> {}
}
