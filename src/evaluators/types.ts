import type { z } from 'zod';
import type { AgentOutput } from '../core/agent-output.ts';
import type { EvaluationResult } from '../core/evaluation.ts';
import type { Task } from '../core/task.ts';
import type { SandboxV1 } from '../sandbox/types.ts';

export interface EvaluationContext {
  readonly task: Task;
  readonly output: AgentOutput;
  readonly signal: AbortSignal;
  /** The trial's workspace folder (for command criteria), when there is one. */
  readonly workspace?: string;
  /** The trial's sandbox, when one is configured: commands run inside it, not on the host. */
  readonly sandbox?: Pick<SandboxV1, 'exec' | 'copyIn' | 'copyOut'>;
  /**
   * The task expects an error (it has an `expect_error` check) and the output is one: every
   * evaluator judges it as the output instead of failing it as "the agent output is an error".
   */
  readonly errorIsOutput?: boolean;
}

/** Scores one trial. Version 1 of the contract. Never throws for a bad output: it scores 0 and says why. */
export interface EvaluatorV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /** Judges errored outputs too (`expect_error`); others score an errored output 0. */
  readonly judgesErrors?: boolean;
  evaluate(ctx: EvaluationContext): Promise<EvaluationResult>;
}

export interface EvaluatorEnvironment {
  /** Folder of the file that named the evaluator; relative paths in options resolve against it. */
  readonly baseDir: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface EvaluatorDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly options: S;
  /** Judges errored outputs too: a task with such an evaluator expects an error (`expect_error`). */
  readonly judgesErrors?: boolean;
  /** Compiles options once (a regex, a schema); may throw `HarnessEvalError('invalid_config')`. */
  create(options: z.infer<S>, environment: EvaluatorEnvironment): EvaluatorV1 | Promise<EvaluatorV1>;
}
