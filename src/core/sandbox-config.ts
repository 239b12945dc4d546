import { z } from 'zod';

export const SandboxBackendSchema = z.enum(['none', 'bwrap', 'docker', 'podman']);
export type SandboxBackendName = z.infer<typeof SandboxBackendSchema>;

/**
 * What the sandboxed processes may reach: `none` — nothing, not even the host's 127.0.0.1;
 * `loopback` — a private loopback where only `forward_ports` (and the model gateway) of the
 * host's 127.0.0.1 answer; `host` — the host's network as it is.
 */
export const SandboxNetworkSchema = z.enum(['none', 'loopback', 'host']);
export type SandboxNetwork = z.infer<typeof SandboxNetworkSchema>;

const port = z.number().int().min(1).max(65535);

/**
 * How a trial's harness and its checks are isolated (`sandbox:` in a harness config or suite).
 * The sandbox's workspace is the only writable path; acceptance tests are copied in only after
 * the agent has finished.
 */
export const SandboxConfigSchema = z
  .object({
    backend: SandboxBackendSchema,
    network: SandboxNetworkSchema.default('none'),
    /** Ports of the host's 127.0.0.1 reachable inside with `network: loopback`, at the same port. */
    forward_ports: z.array(port).default([]),
    /** Address-space limit of each sandboxed process (RLIMIT_DATA with bwrap, --memory with containers). */
    memory_mb: z.number().int().positive().optional(),
    /** CPU-time limit of each sandboxed process (RLIMIT_CPU with bwrap, --cpus is not a time limit). */
    cpu_seconds: z.number().int().positive().optional(),
    /** Host paths mounted read-only inside (tool installs outside /usr); absolute, or relative to the file. */
    read_only: z.array(z.string().min(1)).default([]),
    /** docker/podman: the image for tasks that name none. */
    image: z.string().min(1).optional(),
  })
  .strict();
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
export type SandboxConfigDraft = z.input<typeof SandboxConfigSchema>;
