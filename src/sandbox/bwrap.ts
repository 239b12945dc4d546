import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import {
  BRIDGE_DIR,
  bwrapArgs,
  ETC_ENTRIES,
  limitPrefix,
  SANDBOX_HOME,
  SYSTEM_DIRS,
  type SystemEntry,
} from './bwrap-args.ts';
import { execWrapped } from './exec.ts';
import { LoopbackBridge } from './loopback-bridge.ts';
import { hostPath, insidePath, type PathMapping } from './paths.ts';
import type {
  ExecRequest,
  ExecResult,
  SandboxCommand,
  SandboxMount,
  SandboxSpec,
  SandboxV1,
} from './types.ts';

export interface BwrapTools {
  readonly bwrap: string;
  readonly prlimit: string;
  /** The Node that runs the loopback forwarder inside. */
  readonly node: string;
}

/** System folders as they are on this machine: merged-/usr symlinks are re-created, not bound. */
export function systemEntries(): Map<string, SystemEntry> {
  const entries = new Map<string, SystemEntry>();
  for (const path of SYSTEM_DIRS) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.set(path, { kind: 'symlink', to: readlinkSync(path) });
      else if (stat.isDirectory()) entries.set(path, { kind: 'dir' });
    } catch {
      // absent on this system
    }
  }
  for (const path of ETC_ENTRIES) if (existsSync(path)) entries.set(path, { kind: 'dir' });
  return entries;
}

const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];

/**
 * A bubblewrap sandbox: each command runs in fresh namespaces (PID, IPC, UTS, network unless
 * `host`) over a new root with read-only system folders, a private /tmp and HOME, and the
 * workspace as the only writable host folder. Files copied in land in private folders that
 * later commands see at their target.
 */
export class BwrapSandbox implements SandboxV1 {
  readonly specificationVersion = 'v1';
  readonly backend = 'bwrap';
  readonly seesHostPaths = false;
  private root: string | undefined;
  private bridge: LoopbackBridge | undefined;
  private readonly copies: SandboxMount[] = [];
  private destroyed = false;

  constructor(
    private readonly spec: SandboxSpec,
    private readonly tools: BwrapTools,
    private readonly system: ReadonlyMap<string, SystemEntry> = systemEntries(),
  ) {}

  async prepare(): Promise<void> {
    this.root = await mkdtemp(join(tmpdir(), 'harnesseval-sandbox-'));
    if (this.spec.network === 'loopback') {
      const dir = join(this.root, 'bridge');
      await mkdir(dir);
      this.bridge = await LoopbackBridge.open(dir, this.spec.forwardPorts ?? []);
    }
  }

  private mappings(): PathMapping[] {
    const ws = this.spec.workspace;
    return [...(ws === undefined ? [] : [ws]), ...(this.spec.mounts ?? []), ...this.copies];
  }

  private readOnly(): string[] {
    const paths = new Set<string>();
    // The Node of the forwarder, when it lives outside the system folders (a version manager's).
    if (this.bridge !== undefined && !SYSTEM_PREFIXES.some((p) => this.tools.node.startsWith(p)))
      paths.add(dirname(dirname(this.tools.node)));
    for (const path of this.spec.readOnly ?? []) if (existsSync(path)) paths.add(path);
    return [...paths];
  }

  command(
    argv: readonly string[],
    options: { cwd?: string | undefined; env: Record<string, string> },
  ): SandboxCommand {
    if (this.root === undefined || this.destroyed)
      throw new HarnessEvalError('internal', 'the sandbox is not prepared (or already destroyed)');
    const mappings = this.mappings();
    const ws = this.spec.workspace;
    const cwd = options.cwd === undefined ? (ws?.target ?? '/tmp') : insidePath(mappings, options.cwd);
    // A mount whose source is gone (a report file the runner has read and removed) is left out.
    const mounts: SandboxMount[] = [
      ...(ws === undefined ? [] : [{ host: ws.host, target: ws.target, writable: true }]),
      ...(this.spec.mounts ?? []).filter((m) => existsSync(m.host)),
      ...this.copies,
    ];
    const prefix = [
      ...limitPrefix(this.spec, this.tools.prlimit),
      ...(this.bridge?.prefix(this.tools.node) ?? []),
    ];
    const args = bwrapArgs(
      {
        system: this.system,
        readOnly: this.readOnly(),
        mounts,
        network: this.spec.network,
        cwd,
        ...(this.bridge === undefined ? {} : { bridgeDir: this.bridge.dir }),
        prefix,
      },
      argv.map((arg) => arg),
    );
    return {
      command: this.tools.bwrap,
      args,
      env: { ...options.env, HOME: SANDBOX_HOME, TMPDIR: '/tmp' },
      cwd: this.root,
    };
  }

  exec(request: ExecRequest): Promise<ExecResult> {
    return execWrapped(this, request);
  }

  async copyIn(host: string, target: string): Promise<void> {
    if (this.root === undefined) throw new HarnessEvalError('internal', 'the sandbox is not prepared');
    const existing = hostPath(this.mappings(), target);
    if (existing !== undefined) {
      await mkdir(dirname(existing), { recursive: true });
      await cp(host, existing, { recursive: true, force: true });
      return;
    }
    // A new folder of its own, bound at the target from now on.
    const folder = join(this.root, 'in', String(this.copies.length));
    await mkdir(dirname(folder), { recursive: true });
    await cp(host, folder, { recursive: true });
    this.copies.push({ host: folder, target: posix.normalize(target), writable: true });
  }

  async copyOut(target: string, host: string): Promise<void> {
    const source = hostPath(this.mappings(), target);
    if (source === undefined || !existsSync(source))
      throw new HarnessEvalError('not_found', `nothing at ${target} in the sandbox`);
    await mkdir(dirname(host), { recursive: true });
    await cp(source, host, { recursive: true, force: true });
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.bridge?.close();
    if (this.root !== undefined) await rm(this.root, { recursive: true, force: true });
  }
}

export { BRIDGE_DIR };
