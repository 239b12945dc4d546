import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import { runCommand } from '../util/run-command.ts';
import { BRIDGE_DIR } from './bwrap-args.ts';
import {
  containerBuildArgs,
  containerCopyInArgs,
  containerCopyOutArgs,
  containerExecArgs,
  containerRemoveArgs,
  containerRunArgs,
} from './container-args.ts';
import { execWrapped } from './exec.ts';
import { LoopbackBridge } from './loopback-bridge.ts';
import { insidePath } from './paths.ts';
import type {
  ExecRequest,
  ExecResult,
  SandboxCommand,
  SandboxMount,
  SandboxSpec,
  SandboxV1,
} from './types.ts';

/** How long engine housekeeping (run, cp, rm) may take; a build gets its own limit. */
const ENGINE_TIMEOUT_MS = 120_000;

export interface ContainerSpec extends SandboxSpec {
  /** Build the image from this folder (Harbor's environment/) instead of pulling `image`. */
  readonly buildContext?: string | undefined;
  readonly buildTimeoutMs?: number | undefined;
}

/**
 * A docker or podman container per trial, driven through the engine's CLI. The workspace (and any
 * mounts) are volumes; everything else the container writes stays in the container and goes with
 * it. Not exercised by this project's CI, which has no engine: its command lines are unit-tested.
 */
export class ContainerSandbox implements SandboxV1 {
  readonly specificationVersion = 'v1';
  readonly seesHostPaths = false;
  private readonly name = `harnesseval-${randomBytes(6).toString('hex')}`;
  private bridge: LoopbackBridge | undefined;
  private root: string | undefined;
  private started = false;
  private destroyed = false;

  constructor(
    readonly backend: 'docker' | 'podman',
    private readonly spec: ContainerSpec,
    private readonly engine: string,
  ) {}

  private async engineRun(args: string[], what: string, timeoutMs = ENGINE_TIMEOUT_MS): Promise<void> {
    const run = await runCommand({
      argv: [this.engine, ...args],
      cwd: tmpdir(),
      env: process.env,
      timeoutMs,
    });
    if (run.exitCode !== 0)
      throw new HarnessEvalError(
        'agent_failed',
        `${this.backend} ${what} failed: ${run.spawnError ?? run.outputTail.trim()}`,
      );
  }

  async prepare(): Promise<void> {
    let image = this.spec.image;
    if (this.spec.buildContext !== undefined) {
      image = `${this.name}-image`;
      await this.engineRun(
        containerBuildArgs(image, this.spec.buildContext),
        'build',
        this.spec.buildTimeoutMs,
      );
    }
    if (image === undefined)
      throw new HarnessEvalError(
        'invalid_config',
        `sandbox backend ${this.backend} needs an image (sandbox.image, or the task's)`,
      );
    const mounts: SandboxMount[] = [...this.mounts()];
    if (this.spec.network === 'loopback') {
      this.root = await mkdtemp(join(tmpdir(), 'harnesseval-sandbox-'));
      const dir = join(this.root, 'bridge');
      await mkdir(dir);
      this.bridge = await LoopbackBridge.open(dir, this.spec.forwardPorts ?? []);
      mounts.push({ host: dir, target: BRIDGE_DIR, writable: true });
    }
    await this.engineRun(
      containerRunArgs({
        name: this.name,
        image,
        mounts,
        network: this.spec.network,
        workdir: this.spec.workspace?.target ?? '/',
        memoryMb: this.spec.memoryMb,
        cpuSeconds: this.spec.cpuSeconds,
      }),
      'run',
    );
    this.started = true;
  }

  private mounts(): SandboxMount[] {
    const ws = this.spec.workspace;
    return [...(ws === undefined ? [] : [{ ...ws, writable: true }]), ...(this.spec.mounts ?? [])];
  }

  command(
    argv: readonly string[],
    options: { cwd?: string | undefined; env: Record<string, string> },
  ): SandboxCommand {
    if (!this.started || this.destroyed)
      throw new HarnessEvalError('internal', 'the container is not running');
    const cwd =
      options.cwd === undefined
        ? (this.spec.workspace?.target ?? '/')
        : insidePath(this.mounts(), options.cwd);
    // The engine CLI itself needs PATH and the like; the variables named go into the container.
    const names = Object.keys(options.env);
    const prefix = this.bridge?.prefix('node') ?? [];
    return {
      command: this.engine,
      args: containerExecArgs(this.name, [...prefix, ...argv], cwd, names),
      env: {
        ...pick(process.env, ['PATH', 'DOCKER_HOST', 'CONTAINER_HOST', 'XDG_RUNTIME_DIR']),
        ...options.env,
      },
      cwd: tmpdir(),
    };
  }

  exec(request: ExecRequest): Promise<ExecResult> {
    return execWrapped(this, request);
  }

  async copyIn(host: string, target: string): Promise<void> {
    const isDir = statSync(host).isDirectory();
    await this.engineRun(['exec', this.name, 'mkdir', '-p', isDir ? target : dirname(target)], 'mkdir');
    await this.engineRun(containerCopyInArgs(this.name, host, target, isDir), 'cp');
  }

  async copyOut(target: string, host: string): Promise<void> {
    await mkdir(dirname(host), { recursive: true });
    await this.engineRun(containerCopyOutArgs(this.name, target, host), 'cp');
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.bridge?.close();
    if (this.root !== undefined) await rm(this.root, { recursive: true, force: true });
    if (this.started) await this.engineRun(containerRemoveArgs(this.name), 'rm').catch(() => undefined);
  }
}

function pick(env: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
