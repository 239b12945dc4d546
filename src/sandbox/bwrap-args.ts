import type { SandboxNetwork } from '../core/sandbox-config.ts';
import type { SandboxMount } from './types.ts';

/** Where a system folder is on this machine: a real folder, a symlink (merged /usr), or absent. */
export type SystemEntry = { readonly kind: 'dir' } | { readonly kind: 'symlink'; readonly to: string };

/** System folders every sandboxed program needs, mounted read-only (or re-created as the same symlink). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/**
 * The few files of /etc that programs read (users, name resolution, certificates, alternatives),
 * rather than all of /etc, which may hold secrets.
 */
export const ETC_ENTRIES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/hosts',
  '/etc/resolv.conf',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/localtime',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ssh/ssh_config',
  '/etc/gitconfig',
] as const;

/** Where the host side of the loopback bridge (one unix socket per port) is seen inside. */
export const BRIDGE_DIR = '/run/harnesseval-bridge';
/** The private HOME of every sandboxed process (inside its private /tmp). */
export const SANDBOX_HOME = '/tmp/home';

export interface BwrapPlan {
  readonly system: ReadonlyMap<string, SystemEntry>;
  /** Host paths mounted read-only at the same place (those that exist). */
  readonly readOnly: readonly string[];
  readonly mounts: readonly SandboxMount[];
  readonly network: SandboxNetwork;
  readonly cwd: string;
  /** `network: loopback`: the bridge folder on the host, bound at BRIDGE_DIR. */
  readonly bridgeDir?: string | undefined;
  /** Prefix run inside the sandbox before the command: limits, then the loopback forwarder. */
  readonly prefix: readonly string[];
}

/**
 * The bwrap argument list for one command. A new root holds only what is listed: read-only system
 * folders, a private /tmp and /dev, a new /proc for a new PID namespace, the workspace and the
 * given mounts. No capabilities; the sandbox dies with its parent; no network unless `host`.
 */
export function bwrapArgs(plan: BwrapPlan, argv: readonly string[]): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(plan.network === 'host' ? [] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    '--hostname',
    'harnesseval-sandbox',
  ];
  for (const [path, entry] of plan.system) {
    if (entry.kind === 'symlink') args.push('--symlink', entry.to, path);
    else args.push('--ro-bind', path, path);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', SANDBOX_HOME);
  for (const path of plan.readOnly) args.push('--ro-bind', path, path);
  for (const mount of plan.mounts)
    args.push(mount.writable ? '--bind' : '--ro-bind', mount.host, mount.target);
  if (plan.bridgeDir !== undefined) args.push('--bind', plan.bridgeDir, BRIDGE_DIR);
  args.push('--chdir', plan.cwd, '--', ...plan.prefix, ...argv);
  return args;
}

/** `prlimit` arguments for the resource limits (RLIMIT_DATA for memory: V8 reserves, it does not commit). */
export function limitPrefix(
  limits: { memoryMb?: number | undefined; cpuSeconds?: number | undefined },
  prlimit: string,
): string[] {
  const flags: string[] = [];
  if (limits.memoryMb !== undefined) flags.push(`--data=${limits.memoryMb * 1024 * 1024}`);
  if (limits.cpuSeconds !== undefined) flags.push(`--cpu=${limits.cpuSeconds}`);
  return flags.length === 0 ? [] : [prlimit, ...flags, '--'];
}
