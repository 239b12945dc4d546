import type { SandboxBackendName, SandboxNetwork } from '../core/sandbox-config.ts';
import type { CommandOutcome } from '../util/run-command.ts';

/** A host folder seen at `target` inside the sandbox. */
export interface SandboxMount {
  readonly host: string;
  readonly target: string;
  readonly writable: boolean;
}

/** What one sandbox is made of; the runner builds it per trial. */
export interface SandboxSpec {
  /** The trial's workspace: the only writable host folder, seen at `target` inside. */
  readonly workspace?: { readonly host: string; readonly target: string } | undefined;
  /** Further folders (Harbor's /logs), writable or not. */
  readonly mounts?: readonly SandboxMount[];
  /** Host paths mounted read-only at the same path (a harness script, node_modules, tool installs). */
  readonly readOnly?: readonly string[];
  readonly network: SandboxNetwork;
  readonly forwardPorts?: readonly number[];
  readonly memoryMb?: number | undefined;
  readonly cpuSeconds?: number | undefined;
  /** docker/podman: the image to start. */
  readonly image?: string | undefined;
}

/** A command as `spawn` takes it. */
export interface SandboxCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** The host folder to start the wrapper in. */
  readonly cwd: string;
}

export interface ExecRequest {
  readonly argv: readonly string[];
  /** Working directory inside the sandbox (a host path under the workspace is translated). */
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Bytes of combined stdout + stderr kept from the end. */
  readonly tailBytes?: number;
}

/** What `exec` reports: exit status or signal, whether it timed out, the tail of its output. */
export type ExecResult = CommandOutcome;

/**
 * An isolated place to run a trial's harness and checks. Version 1 of the contract. It knows
 * nothing of suites or scoring: the runner and adapters say what to run and what to copy.
 */
export interface SandboxV1 {
  readonly specificationVersion: 'v1';
  readonly backend: SandboxBackendName;
  /**
   * Whether a command inside sees the host's files at their host paths (no isolation of paths):
   * then a host folder can be handed to it as it is, with nothing to copy in or out.
   */
  readonly seesHostPaths: boolean;
  /** Creates what the sandbox needs (folders, a container). Call once before anything else. */
  prepare(): Promise<void>;
  /**
   * The command line that runs `argv` inside the sandbox, for an adapter that spawns and streams
   * the process itself. Killing the returned process's group ends everything inside.
   */
  command(
    argv: readonly string[],
    options: { cwd?: string | undefined; env: Record<string, string> },
  ): SandboxCommand;
  /** Runs a command inside and waits for it (a check, a setup script). */
  exec(request: ExecRequest): Promise<ExecResult>;
  /** Copies a host file or folder to `target` inside; later commands see it. */
  copyIn(host: string, target: string): Promise<void>;
  /** Copies `target` from inside to a host path. */
  copyOut(target: string, host: string): Promise<void>;
  /** Ends every process and removes what `prepare` made; safe to call twice. */
  destroy(): Promise<void>;
}
