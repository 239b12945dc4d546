import type { z } from 'zod';
import type { AgentOutput } from '../core/agent-output.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { Task, TaskInput } from '../core/task.ts';
import type { SandboxV1 } from '../sandbox/types.ts';

/** What an adapter gets for one trial (task x epoch). */
export interface TrialContext {
  readonly task: Task;
  readonly epoch: number;
  readonly trialId: string;
  /** Fires at the trial's timeout or when the run is interrupted. */
  readonly signal: AbortSignal;
  /** The trial's workspace folder, when the task has a codebase. */
  readonly workspace?: string;
  /**
   * Extra environment for a harness that runs as a subprocess, e.g. `HARNESSEVAL_EVENTS`
   * (the file where it reports events). Adapters that start processes add these.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The trial's sandbox, when one is configured: an adapter that starts processes runs them
   * through it (`sandbox.command`), with `workspace` as their working directory.
   */
  readonly sandbox?: SandboxV1;
  /** The step of a multi-step task being run (0-based), when the task has steps. */
  readonly step?: { readonly index: number; readonly id: string };
  /**
   * The trial's route through the recording model gateway, when the harness config turns it on.
   * Its variables are already in `env`; adapters of CLIs with their own settings (Codex's model
   * provider) read the base URLs here.
   */
  readonly gateway?: TrialGateway;
}

/** Where a harness sends its model calls for one trial (see `gateway:` in a harness config). */
export interface TrialGateway {
  /** For Anthropic clients (`ANTHROPIC_BASE_URL`; they append `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** For OpenAI clients (`OPENAI_BASE_URL`; they append `/chat/completions`, `/responses`). */
  readonly openaiBaseUrl: string;
  /** A placeholder key naming the route; the gateway sends the real one upstream. */
  readonly apiKey: string;
}

/**
 * A harness under test, driven by an adapter. Version 1 of the contract; a breaking change adds
 * `AgentV2` beside it. `run` never throws: failures come back as `AgentOutput.error`.
 */
export interface AgentV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  run(input: TaskInput, ctx: TrialContext): Promise<AgentOutput>;
  /**
   * Where the harness reports its process events (agent calls, prompts, human touchpoints):
   * `trackers` — it runs in this process and uses the `ctx` trackers; `files` — a subprocess
   * that writes `$HARNESSEVAL_EVENTS` (and a trace file), which the runner creates and reads per
   * trial; `response` — a service that reports in what the adapter returns (a `trace_file`
   * option still adds a per-trial file). Unset: `files` for an adapter's agent, `trackers` for an
   * agent given to the runner in code.
   */
  readonly reports?: 'trackers' | 'files' | 'response';
  /**
   * Host files the harness needs to read inside a sandbox (its own script, say); they are mounted
   * read-only at the same path. Nothing else of the host is, the suite's folder included.
   */
  readonly sandboxPaths?: readonly string[];
  /** Release shared resources (an MCP connection, a server process). */
  close?(): Promise<void>;
}

/** Where an adapter is created: relative paths in its options resolve against `baseDir`. */
export interface AdapterEnvironment {
  readonly baseDir: string;
  readonly harness: HarnessConfig;
  /** The environment of the HarnessEval process (for `${ENV_VAR}` expansion; never stored). */
  readonly env: NodeJS.ProcessEnv;
}

export interface AdapterDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly options: S;
  /** May throw `HarnessEvalError('invalid_config')` for a misconfiguration found before any trial. */
  create(options: z.infer<S>, environment: AdapterEnvironment): Promise<AgentV1>;
}
