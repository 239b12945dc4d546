export { findExecutable } from '../util/find-executable.ts';
export { BwrapSandbox } from './bwrap.ts';
export { ContainerSandbox, type ContainerSpec } from './container.ts';
export { NoSandbox } from './none.ts';
export { type Availability, createSandbox, sandboxAvailability } from './registry.ts';
export type {
  ExecRequest,
  ExecResult,
  SandboxCommand,
  SandboxMount,
  SandboxSpec,
  SandboxV1,
} from './types.ts';
