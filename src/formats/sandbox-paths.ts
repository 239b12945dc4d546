import { dirname, resolve } from 'node:path';
import type { SandboxConfig } from '../core/sandbox-config.ts';

/** A `sandbox:` section with its `read_only` paths made absolute against the file that names them. */
export function sandboxRelativeTo(config: SandboxConfig, file: string): SandboxConfig {
  return { ...config, read_only: config.read_only.map((path) => resolve(dirname(file), path)) };
}
