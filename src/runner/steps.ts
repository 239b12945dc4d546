import { cp } from 'node:fs/promises';
import { failedOutput } from '../adapters/agent-result.ts';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import { type AgentOutput, emptyTrace, type Trace } from '../core/agent-output.ts';
import type { EvaluationResult } from '../core/evaluation.ts';
import type { Task, TaskStep } from '../core/task.ts';
import type { SandboxV1 } from '../sandbox/types.ts';
import { runCommand } from '../util/run-command.ts';
import { type AttemptOptions, attemptTrial } from './attempt.ts';
import type { TrialChecks } from './checks.ts';

/** The id under which a step's checks are prepared and reported. */
export function stepTaskId(task: Task, step: TaskStep): string {
  return `${task.id}::${step.id}`;
}

/** A task's steps as tasks of their own (for preparing their checks once, before the first trial). */
export function stepTasks(task: Task): Task[] {
  return (task.steps ?? []).map((step) => ({
    ...task,
    id: stepTaskId(task, step),
    input: step.input,
    evaluators: step.evaluators,
    criteria: [],
    steps: undefined,
  }));
}

/** The trial timeout of a task with steps: the sum of its steps' agent timeouts. */
export function stepsTimeoutSeconds(task: Task, fallback: number): number {
  return (task.steps ?? []).reduce((sum, step) => sum + (step.timeout_seconds ?? fallback), 0);
}

export interface StepSummary {
  readonly id: string;
  readonly score: number | null;
  readonly scores: Record<string, number>;
  readonly error?: string;
}

export interface RunStepsInput {
  readonly task: Task;
  readonly agent: AgentV1;
  readonly ctx: TrialContext;
  readonly checks: TrialChecks;
  readonly attempt: AttemptOptions;
  readonly defaultTimeoutSeconds: number;
  readonly sandbox?: SandboxV1 | undefined;
  readonly workspace?: string | undefined;
  readonly checkSignal: AbortSignal;
  readonly producerModels: readonly string[];
}

/**
 * A multi-step trial: for each step in order, its files go into the workspace, its setup command
 * runs, the agent gets its input, and its checks judge the result; a step whose scores fall under
 * its `min_score` stops the rest. The workspace (and the sandbox) carry over from step to step.
 */
export async function runSteps(input: RunStepsInput): Promise<{
  output: AgentOutput;
  evaluations: EvaluationResult[];
  attempts: number;
  steps: StepSummary[];
  stoppedAfter?: string;
}> {
  const { task } = input;
  const steps: StepSummary[] = [];
  const outputs: AgentOutput[] = [];
  let evaluations: EvaluationResult[] = [];
  let attempts = 0;
  for (const [index, step] of (task.steps ?? []).entries()) {
    const setupError = await prepareStep(step, input);
    if (setupError !== undefined) {
      outputs.push(failedOutput('config', `step ${step.id}: ${setupError}`));
      steps.push({ id: step.id, score: null, scores: {}, error: setupError });
      break;
    }
    const timeout = AbortSignal.timeout((step.timeout_seconds ?? input.defaultTimeoutSeconds) * 1000);
    const signal = AbortSignal.any([input.ctx.signal, timeout]);
    const ran = await attemptTrial(
      input.agent,
      step.input,
      { ...input.ctx, signal, step: { index, id: step.id } },
      input.attempt,
    );
    attempts += ran.attempts;
    outputs.push(ran.output);
    if (ran.output.error !== undefined) {
      steps.push({ id: step.id, score: null, scores: {}, error: ran.output.error });
      break;
    }
    const judged = await input.checks.check(stepTaskOf(task, step), ran.output, {
      signal: input.checkSignal,
      workspace: input.workspace,
      producerModels: input.producerModels,
      ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }),
    });
    const stepEvaluations = judged.evaluations.map((e) => ({
      ...e,
      details: { ...e.details, step: step.id },
    }));
    evaluations = task.step_scoring === 'final' ? stepEvaluations : [...evaluations, ...stepEvaluations];
    const summary = summarize(step.id, stepEvaluations);
    steps.push(summary);
    if (!meetsMinimum(step, summary)) {
      return { output: mergeOutputs(outputs, steps), evaluations, attempts, steps, stoppedAfter: step.id };
    }
  }
  return { output: mergeOutputs(outputs, steps), evaluations, attempts: Math.max(attempts, 1), steps };
}

function stepTaskOf(task: Task, step: TaskStep): Task {
  return {
    ...task,
    id: stepTaskId(task, step),
    input: step.input,
    evaluators: step.evaluators,
    criteria: [],
  };
}

/** Copies the step's files into the workspace and runs its setup; the reason when that fails. */
async function prepareStep(step: TaskStep, input: RunStepsInput): Promise<string | undefined> {
  if (input.workspace === undefined) return undefined;
  for (const folder of Object.values(step.files))
    await cp(folder, input.workspace, { recursive: true, force: true });
  if (step.setup === undefined) return undefined;
  const request = { argv: step.setup, cwd: input.workspace, timeoutMs: 600_000, signal: input.ctx.signal };
  const run =
    input.sandbox === undefined
      ? await runCommand({ ...request, env: { PATH: process.env['PATH'] ?? '' } })
      : await input.sandbox.exec({ ...request, env: { PATH: process.env['PATH'] ?? '' } });
  if (run.exitCode === 0) return undefined;
  return `setup ${step.setup.join(' ')} failed (${run.spawnError ?? `exit ${run.exitCode ?? run.signal}`}): ${run.outputTail.trim().slice(-500)}`;
}

function summarize(id: string, evaluations: readonly EvaluationResult[]): StepSummary {
  const score =
    evaluations.length === 0 ? null : evaluations.reduce((sum, e) => sum + e.score, 0) / evaluations.length;
  const scores: Record<string, number> = {};
  for (const e of evaluations) {
    const reported = e.details['scores'];
    if (reported !== null && typeof reported === 'object' && !Array.isArray(reported))
      for (const [name, value] of Object.entries(reported))
        if (typeof value === 'number') scores[name] = value;
  }
  return { id, score, scores };
}

/** Harbor's rule: a missing score counts as minus infinity, so it stops the trial. */
function meetsMinimum(step: TaskStep, summary: StepSummary): boolean {
  const min = step.min_score;
  if (min === undefined) return true;
  if (typeof min === 'number')
    return (summary.scores['reward'] ?? summary.score ?? Number.NEGATIVE_INFINITY) >= min;
  return Object.entries(min).every(
    ([name, value]) => (summary.scores[name] ?? Number.NEGATIVE_INFINITY) >= value,
  );
}

/** One output for the trial: the last step's answer, everything the steps did added up. */
function mergeOutputs(outputs: readonly AgentOutput[], steps: readonly StepSummary[]): AgentOutput {
  const last = outputs.at(-1) ?? failedOutput('config', 'the task has no steps');
  const trace: Trace = emptyTrace();
  for (const o of outputs) {
    const t = o.trace ?? emptyTrace();
    trace.agent_calls.push(...t.agent_calls);
    trace.agent_invocations.push(...t.agent_invocations);
    trace.prompts.push(...t.prompts);
    trace.human.push(...t.human);
    trace.circuit_breakers.push(...t.circuit_breakers);
    trace.malformed_events.push(...t.malformed_events);
  }
  const costs = outputs.map((o) => o.usage.cost_usd);
  const error = outputs.find((o) => o.error !== undefined);
  return {
    ...last,
    latency: outputs.reduce((sum, o) => sum + o.latency, 0),
    tool_calls: outputs.flatMap((o) => o.tool_calls),
    usage: {
      tokens_in: outputs.reduce((sum, o) => sum + o.usage.tokens_in, 0),
      tokens_out: outputs.reduce((sum, o) => sum + o.usage.tokens_out, 0),
      cached_tokens: outputs.reduce((sum, o) => sum + o.usage.cached_tokens, 0),
      // A total is known only when every step's is.
      cost_usd: costs.every((c) => c !== null) ? costs.reduce<number>((sum, c) => sum + (c ?? 0), 0) : null,
    },
    trace,
    metadata: { ...last.metadata, steps },
    ...(error?.error === undefined ? {} : { error: error.error, error_kind: error.error_kind }),
  };
}
