import type { ErrorKind } from '../../core/agent-output.ts';
import type { CriterionResult } from '../../core/evaluation.ts';
import type { RunRecordDraft } from '../../core/run-record.ts';
import type { AtifIngest } from '../../formats/atif.ts';
import { clip, isoTime, secondsBetween } from './experiment-draft.ts';
import { HARBOR_TRIAL_FIELDS, type HarborTrialResult } from './harbor-schema.ts';
import type { UnmappedFields } from './unmapped.ts';

/** One trial folder of a Harbor job, read. */
export interface HarborTrial {
  readonly result: HarborTrialResult;
  /** The folder as shown in messages. */
  readonly shown: string;
  readonly trajectory?: AtifIngest | undefined;
  /** Rewards from verifier/reward.json or reward.txt, when result.json has none. */
  readonly rewardFile?: Record<string, number | null> | undefined;
  /** The end of verifier/test-stdout.txt. */
  readonly verifierTail?: string | undefined;
}

/**
 * Harbor's exception types (src/harbor/trial/trial.py, verifier/, environments/) by what they say
 * about the harness. The environment not starting, the agent not installing, the tests not being
 * copied in are the infrastructure's (`infra`, left out of rates); a timeout is the harness's; a
 * missing reward file counts against the harness, as Harbor's `mean` counts it as 0.
 */
const HARBOR_EXCEPTION_KINDS: Readonly<Record<string, ErrorKind>> = {
  AgentTimeoutError: 'timeout',
  VerifierTimeoutError: 'timeout',
  AgentSetupTimeoutError: 'infra',
  EnvironmentStartTimeoutError: 'infra',
  EnvironmentBuildTimeoutError: 'infra',
  HealthcheckError: 'infra',
  AddTestsDirError: 'infra',
  DownloadVerifierDirError: 'infra',
  DockerComposeError: 'infra',
  SandboxBuildFailedError: 'infra',
  CancelledError: 'aborted',
  KeyboardInterrupt: 'aborted',
  NonZeroAgentExitCodeError: 'crash',
  ContextLengthExceededError: 'agent',
  OutputLengthExceededError: 'agent',
  RewardFileNotFoundError: 'agent',
  RewardFileEmptyError: 'agent',
  VerifierOutputParseError: 'agent',
};

/** The error kind of a Harbor exception type; `extraInfra` are more types the user counts as infra. */
export function harborExceptionKind(type: string, extraInfra: ReadonlySet<string> = new Set()): ErrorKind {
  if (extraInfra.has(type)) return 'infra';
  const known = HARBOR_EXCEPTION_KINDS[type];
  if (known !== undefined) return known;
  // Environment providers raise their own types (Daytona, Modal, E2B, docker...): theirs, not the agent's.
  if (/docker|daytona|modal|e2b|runloop|sandbox|environment|container|compose|podman/i.test(type))
    return 'infra';
  return 'agent';
}

/** The trial's main reward: `reward`, else the only one, else the mean of all (Harbor's multi-metric rewards). */
export function mainReward(rewards: Readonly<Record<string, number | null>>): number | undefined {
  const known = Object.entries(rewards).filter((e): e is [string, number] => e[1] !== null);
  const named = rewards['reward'];
  if (typeof named === 'number') return named;
  if (known.length === 0) return undefined;
  return known.reduce((s, [, v]) => s + v, 0) / known.length;
}

const inUnit = (value: number) => value >= 0 && value <= 1;

function rewardCriteria(
  rewards: Readonly<Record<string, number | null>>,
  passThreshold: number,
  tail: string | undefined,
  unmapped: UnmappedFields,
): CriterionResult[] {
  const criteria: CriterionResult[] = [];
  for (const [name, value] of Object.entries(rewards)) {
    if (value === null) {
      unmapped.note(`verifier_result.rewards.${name}`, 'null reward: no criterion result (kept in metadata)');
      continue;
    }
    if (!inUnit(value)) {
      unmapped.note(`verifier_result.rewards.${name}`, 'reward outside 0..1: kept in metadata, not a score');
      continue;
    }
    criteria.push({
      id: name,
      verification: 'automated',
      status: value >= passThreshold ? 'passed' : 'failed',
      score: value,
      explanation: `Harbor verifier reward ${name} = ${value}`,
      ...(tail === undefined ? {} : { output_tail: tail }),
      grades: [],
      details: {},
    });
  }
  return criteria;
}

function tokens(trial: HarborTrial, unmapped: UnmappedFields) {
  const agent = trial.result.agent_result;
  const fromAtif = trial.trajectory?.usage;
  const input = agent?.n_input_tokens ?? fromAtif?.tokens_in;
  const output = agent?.n_output_tokens ?? fromAtif?.tokens_out;
  const unknown = input == null || output == null;
  if (unknown)
    unmapped.note(
      'agent_result.n_input_tokens/n_output_tokens',
      'not reported (no trajectory either): tokens unknown, left out of the token metrics',
    );
  const cost = agent?.cost_usd ?? fromAtif?.cost_usd ?? null;
  return {
    tokens_in: input ?? 0,
    tokens_out: output ?? 0,
    cached_tokens: agent?.n_cache_tokens ?? fromAtif?.cached_tokens ?? 0,
    // Unpriced stays unpriced: no cost reported is null, never 0; no count is unknown, never 0.
    cost_usd: cost,
    ...(unknown ? { tokens_unknown: true as const } : {}),
  };
}

function verdict(
  trial: HarborTrial,
  rewards: Readonly<Record<string, number | null>> | undefined,
  options: { passThreshold: number; infra: ReadonlySet<string> },
): Pick<RunRecordDraft, 'outcome' | 'error' | 'error_kind'> & { score?: number } {
  const exception = trial.result.exception_info;
  const kind = exception == null ? undefined : harborExceptionKind(exception.exception_type, options.infra);
  const message =
    exception == null ? undefined : `${exception.exception_type}: ${clip(exception.exception_message, 1000)}`;
  // An environment that never came up has no verdict on the agent, whatever a reward file says.
  if (kind === 'infra' && message !== undefined)
    return { outcome: 'error', error: message, error_kind: 'infra' };
  const main = rewards === undefined ? undefined : mainReward(rewards);
  // Harbor still verifies after an agent timeout: the reward is the verdict, the exception is kept.
  if (main !== undefined)
    return {
      outcome: main >= options.passThreshold ? 'pass' : 'fail',
      ...(inUnit(main) ? { score: main } : {}),
    };
  if (message !== undefined && kind !== undefined)
    return { outcome: 'error', error: message, error_kind: kind };
  return {
    outcome: 'error',
    error: 'the trial has no verifier reward and no exception (it did not finish)',
    error_kind: 'aborted',
  };
}

/** One Harbor trial as a run record (epoch and experiment id set by the caller). */
export function harborRecord(
  trial: HarborTrial,
  options: {
    readonly passThreshold: number;
    readonly infra: ReadonlySet<string>;
    readonly fallbackTime: string;
    readonly unmapped: UnmappedFields;
  },
): RunRecordDraft {
  const { result, trajectory } = trial;
  const { unmapped } = options;
  unmapped.unknownKeys(result, HARBOR_TRIAL_FIELDS, '');
  if (result.agent_result?.rollout_details != null)
    unmapped.note('agent_result.rollout_details', 'token ids, loss masks and logprobs are not kept');
  if (Array.isArray(result.step_results) && result.step_results.length > 0)
    unmapped.note('step_results', 'kept in record metadata; per-step rewards are not scored as steps');
  const rewards = result.verifier_result?.rewards ?? trial.rewardFile;
  const criteria =
    rewards === undefined || rewards === null
      ? []
      : rewardCriteria(rewards, options.passThreshold, trial.verifierTail, unmapped);
  const { score, ...outcome } = verdict(trial, rewards ?? undefined, options);
  const usage = tokens(trial, unmapped);
  const model = result.agent_info.model_info;
  const modelName =
    model == null
      ? (result.config?.agent?.model_name ?? undefined)
      : model.provider
        ? `${model.provider}/${model.name}`
        : model.name;
  const phase = (
    t: { started_at?: string | null | undefined; finished_at?: string | null | undefined } | null | undefined,
  ) => (t == null ? undefined : secondsBetween(t.started_at, t.finished_at));
  const exception = result.exception_info;
  return {
    run_id: result.id ?? '',
    task_id: result.task_name,
    harness_config: {
      name: result.agent_info.name,
      version: result.agent_info.version,
      ...(modelName === undefined ? {} : { model: modelName }),
    },
    timestamp: isoTime(result.started_at) ?? options.fallbackTime,
    duration_seconds: secondsBetween(result.started_at, result.finished_at) ?? 0,
    cost_usd: usage.cost_usd,
    ...outcome,
    output: {
      output: trajectory?.output ?? '',
      latency: phase(result.agent_execution) ?? 0,
      tool_calls: trajectory?.tool_calls ?? [],
      usage,
      ...(trajectory === undefined ? {} : { trace: trajectory.trace }),
      metadata: result.agent_result?.metadata ?? {},
      ...(outcome.error === undefined ? {} : { error: outcome.error, error_kind: outcome.error_kind }),
    },
    ...(trajectory === undefined ? {} : { trace: trajectory.trace }),
    criteria,
    metrics: {
      tokens_in: usage.tokens_in,
      tokens_out: usage.tokens_out,
      acceptance_criteria_total: criteria.length,
      acceptance_criteria_passed: criteria.filter((c) => c.status === 'passed').length,
      agent_calls: trajectory?.trace.agent_calls.length ?? 0,
    },
    scores: score === undefined ? {} : { overall: score, functional_completeness: score },
    metadata: {
      harbor: {
        trial_name: result.trial_name,
        trial_dir: trial.shown,
        ...(result.trial_uri === undefined ? {} : { trial_uri: result.trial_uri }),
        ...(result.task_checksum === undefined ? {} : { task_checksum: result.task_checksum }),
        ...(result.task_id === undefined ? {} : { task_id: result.task_id }),
        ...(result.source == null ? {} : { source: result.source }),
        ...(rewards == null ? {} : { rewards }),
        ...(exception == null
          ? {}
          : {
              exception: {
                type: exception.exception_type,
                message: clip(exception.exception_message),
                traceback: clip(exception.exception_traceback),
                ...(exception.occurred_at == null ? {} : { occurred_at: exception.occurred_at }),
              },
            }),
        timing_seconds: {
          environment_setup: phase(result.environment_setup) ?? null,
          agent_setup: phase(result.agent_setup) ?? null,
          agent_execution: phase(result.agent_execution) ?? null,
          verifier: phase(result.verifier) ?? null,
        },
        ...(result.config?.agent?.kwargs == null ? {} : { agent_kwargs: result.config.agent.kwargs }),
        ...(Array.isArray(result.step_results) && result.step_results.length > 0
          ? { step_results: result.step_results }
          : {}),
        ...(result.environment_state == null ? {} : { environment_state: result.environment_state }),
        tokens_reported: result.agent_result?.n_input_tokens != null,
      },
    },
  };
}
