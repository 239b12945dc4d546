import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AgentV1 } from '../adapters/types.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { SandboxConfig } from '../core/sandbox-config.ts';
import type { Task } from '../core/task.ts';
import { createSandbox, sandboxAvailability } from '../sandbox/registry.ts';
import type { SandboxMount, SandboxV1 } from '../sandbox/types.ts';
import { protectedFiles, restoreProtectedFiles } from './workspace.ts';

/** Why a task cannot run in this sandbox (it needs an image and the backend runs none), or nothing. */
export function sandboxRefusal(task: Task, config: SandboxConfig | undefined): string | undefined {
  const env = task.environment;
  const needsImage = env?.image !== undefined || env?.build_context !== undefined;
  const backend = config?.backend;
  if (needsImage && backend !== 'docker' && backend !== 'podman') {
    const what =
      env?.image === undefined ? `an image built from ${env?.build_context}` : `the image ${env.image}`;
    return `the task needs ${what}, which only a docker or podman sandbox can run (this run's sandbox: ${backend ?? 'none configured'})`;
  }
  const moved = env?.workdir !== undefined || (env?.log_dirs.length ?? 0) > 0;
  if (moved && (backend === undefined || backend === 'none'))
    return `the task uses paths inside a sandbox (${[env?.workdir, ...(env?.log_dirs ?? [])].filter(Boolean).join(', ')}); run it with a sandbox: --sandbox bwrap, docker or podman`;
  return undefined;
}

/**
 * Every task the run cannot honestly run here, as located diagnostics; a task is refused, never
 * run without the isolation or image it asks for. Throws `invalid_config` when the backend itself
 * cannot run on this machine.
 */
export async function checkSandboxFor(
  tasks: readonly Task[],
  config: SandboxConfig | undefined,
): Promise<void> {
  const available = config === undefined ? undefined : await sandboxAvailability(config.backend);
  const diagnostics: Diagnostic[] = [];
  for (const task of tasks) {
    let reason = sandboxRefusal(task, config);
    if (reason === undefined && available?.ok === false)
      reason = `it needs the ${config?.backend} sandbox, and ${available.reason}`;
    if (reason === undefined) continue;
    diagnostics.push({
      file: task.source?.file ?? task.id,
      line: task.source?.line ?? 0,
      col: 1,
      path: 'environment',
      message: `task ${task.id} refused: ${reason}`,
      severity: 'error',
    });
  }
  if (diagnostics.length > 0)
    throw new HarnessEvalError('invalid_config', `${diagnostics.length} task(s) cannot run in this sandbox`, {
      diagnostics,
    });
}

/** One trial's sandbox, with the acceptance tests it keeps back until the agent has finished. */
export interface TrialSandbox {
  readonly sandbox: SandboxV1;
  /** The workspace folder on the host (a fresh empty one when the task has no codebase). */
  readonly workspace: string;
  /** The workspace as the harness sees it inside the sandbox (the task's workdir, or the same path). */
  readonly seenWorkspace: string;
  /** Protected files taken out of the workspace before the agent ran. */
  readonly withheld: readonly string[];
  /** Copies the withheld files in; returns those the agent had created at their paths (now replaced). */
  afterAgent(): Promise<string[]>;
  dispose(keepWorkspace: boolean): Promise<void>;
}

export interface OpenSandboxOptions {
  readonly task: Task;
  readonly config: SandboxConfig;
  readonly agent: AgentV1;
  /** The trial's workspace, when the task has a codebase. */
  readonly workspace: string | undefined;
  /** The trial's environment for the harness; files it names (events, traces) stay writable. */
  readonly env: Readonly<Record<string, string>>;
  /** Ports of 127.0.0.1 reachable with `network: loopback` besides the config's (the model gateway). */
  readonly forwardPorts?: readonly number[];
}

/** Files the harness reports through, bound writable at their own path (created empty first). */
const REPORT_ENV = ['HARNESSEVAL_EVENTS', 'HARNESSEVAL_OTEL_FILE'];

/**
 * What the sandbox may reach. The run's own services (the model gateway) are always reachable,
 * through the loopback bridge: `network: none` means nothing else, not a harness cut off from its
 * model. `loopback` adds the config's ports; `host` is the host's network.
 */
function sandboxNetwork(
  config: SandboxConfig,
  runPorts: readonly number[],
): { network: SandboxConfig['network']; forwardPorts: number[] } {
  if (config.network === 'none')
    return runPorts.length === 0
      ? { network: 'none', forwardPorts: [] }
      : { network: 'loopback', forwardPorts: [...runPorts] };
  return { network: config.network, forwardPorts: [...config.forward_ports, ...runPorts] };
}

/** Creates and prepares the sandbox of one trial. */
export async function openTrialSandbox(options: OpenSandboxOptions): Promise<TrialSandbox> {
  const { task, config } = options;
  const scratch = await mkdtemp(join(tmpdir(), 'harnesseval-trial-'));
  const workspace = options.workspace ?? join(scratch, 'workspace');
  await mkdir(workspace, { recursive: true });
  // Harbor's rule: the agent never sees the tests; they are copied in after it finishes.
  const withheld = options.workspace === undefined ? [] : await protectedFiles(task);
  for (const file of withheld) await rm(join(workspace, file), { force: true });

  const mounts: SandboxMount[] = [];
  for (const [i, target] of (task.environment?.log_dirs ?? []).entries()) {
    const host = join(scratch, 'logs', String(i));
    await mkdir(host, { recursive: true });
    mounts.push({ host, target, writable: true });
  }
  for (const name of REPORT_ENV) {
    const file = options.env[name];
    if (file === undefined) continue;
    await mkdir(dirname(file), { recursive: true });
    if (!existsSync(file)) await writeFile(file, '');
    mounts.push({ host: file, target: file, writable: true });
  }
  const seenWorkspace = task.environment?.workdir ?? workspace;
  const sandbox = await createSandbox(config.backend, {
    workspace: { host: workspace, target: seenWorkspace },
    mounts,
    readOnly: [...(options.agent.sandboxPaths ?? []), ...config.read_only, ...linkedModules(workspace)],
    ...sandboxNetwork(config, options.forwardPorts ?? []),
    memoryMb: task.environment?.memory_mb ?? config.memory_mb,
    cpuSeconds: config.cpu_seconds,
    image: task.environment?.image ?? config.image,
    buildContext: task.environment?.build_context,
  });
  try {
    await sandbox.prepare();
  } catch (error) {
    await sandbox.destroy();
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    sandbox,
    workspace,
    seenWorkspace,
    withheld,
    async afterAgent() {
      const created = withheld.filter((file) => existsSync(join(workspace, file)));
      await restoreProtectedFiles(task, workspace);
      return created;
    },
    async dispose(keepWorkspace) {
      await sandbox.destroy();
      if (!keepWorkspace || options.workspace !== undefined)
        await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** The target of the workspace's node_modules link (the runner links the suite's in), to mount read-only. */
function linkedModules(workspace: string): string[] {
  const link = join(workspace, 'node_modules');
  try {
    if (!lstatSync(link).isSymbolicLink()) return [];
    return [resolve(workspace, readlinkSync(link))];
  } catch {
    return [];
  }
}
