import type { AgentV1 } from '../adapters/types.ts';
import type { RunSettings } from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { SandboxConfig } from '../core/sandbox-config.ts';
import type { Suite } from '../core/suite.ts';
import { DEFAULT_PRICES, mergePrices } from '../instrument/pricing.ts';
import { seededRandom } from './attempt.ts';
import type { TrialChecks } from './checks.ts';
import type { TrialDeadlines } from './deadline.ts';
import type { RunnerEvent } from './events.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { TrialSetup } from './trial.ts';
import { RunGateway } from './trial-gateway.ts';

export interface TrialSetupInput {
  readonly experimentId: string;
  readonly suite: Suite;
  readonly suiteDir: string;
  readonly harness: HarnessConfig;
  readonly harnessBaseDir: string;
  readonly agent: AgentV1;
  /** Whether the caller handed the agent in (an in-process harness) rather than it being made from `harness`. */
  readonly agentGiven: boolean;
  readonly checks: TrialChecks;
  readonly deadlines: TrialDeadlines;
  readonly settings: RunSettings;
  readonly keepWorkspaces: boolean;
  /** Scrubs secrets from text the trial keeps (workspace diffs). */
  readonly redact: (text: string) => string;
  readonly emit: (event: RunnerEvent) => Promise<void>;
  /** The environment the harness runs with (the gateway forwards with its keys). */
  readonly env: NodeJS.ProcessEnv;
  /** Each trial's harness and checks run in a sandbox of this kind. */
  readonly sandbox?: SandboxConfig | undefined;
  /** 127.0.0.1 ports a sandbox with `network: loopback` lets through. */
  readonly sandboxForwardPorts?: readonly number[];
  /** Counts the harness config's `rate_limits` (default: in this process). */
  readonly rateLimiter?: RateLimiter;
}

/**
 * What every trial of an experiment shares, the same for a local run and a queue worker. With
 * `gateway:` in the harness config it starts the run's recording model gateway: the caller closes
 * it (`setup.gateway?.close()`) when the trials are done.
 */
export async function createTrialSetup(input: TrialSetupInput): Promise<TrialSetup> {
  // Subprocesses report through files, in-process harnesses through trackers, services in their
  // response. Reading (and removing) a per-trial file nobody can write cost an HTTP trial two syscalls.
  const reports = input.agent.reports ?? (input.agentGiven ? 'trackers' : 'files');
  const traceFile = input.harness.options['trace_file'];
  const traceFileOption = typeof traceFile === 'string' ? traceFile : undefined;
  const prices = mergePrices(DEFAULT_PRICES, input.harness.pricing);
  const gateway = await RunGateway.start(input.harness, {
    baseDir: input.harnessBaseDir,
    env: input.env,
    prices,
    rateLimiter: input.rateLimiter,
  });
  return {
    experimentId: input.experimentId,
    suite: input.suite,
    suiteDir: input.suiteDir,
    harness: input.harness,
    harnessBaseDir: input.harnessBaseDir,
    agent: input.agent,
    checks: input.checks,
    deadlines: input.deadlines,
    settings: input.settings,
    prices,
    gateway,
    random: seededRandom(input.settings.seed ?? Date.now()),
    telemetry: {
      files: reports === 'files' || (reports === 'response' && traceFileOption !== undefined),
      traceFile: traceFileOption,
    },
    sandbox: input.sandbox,
    // The harness inside a loopback sandbox reaches the run's gateway through the bridge.
    sandboxForwardPorts: [
      ...(input.sandboxForwardPorts ?? []),
      ...(gateway === undefined ? [] : [gateway.port]),
    ],
    keepWorkspaces: input.keepWorkspaces,
    redact: input.redact,
    emit: input.emit,
  };
}
