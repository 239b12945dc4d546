import {
  type AgentCall,
  AgentCallSchema,
  type CircuitBreakerEvent,
  type HumanAction,
  type Planned,
  type ToolCall,
  ToolCallSchema,
  type Trace,
} from '../core/agent-output.ts';

export interface AgentCallInput {
  /** The provider's response id: a call also reported another way under this id counts once. */
  readonly id?: string;
  readonly role: string;
  readonly model?: string;
  readonly provider?: string;
  readonly tokens_in?: number;
  readonly tokens_out?: number;
  readonly cached_tokens?: number;
  /** Input tokens written to the prompt cache (part of tokens_in, priced at the cache-write price). */
  readonly cache_write_tokens?: number;
  readonly cost_usd?: number;
  readonly duration_seconds?: number;
  readonly error?: string;
  readonly metadata?: Record<string, unknown>;
}

export interface TokenUsage {
  readonly tokens_in?: number;
  readonly tokens_out?: number;
  readonly cached_tokens?: number;
  readonly cache_write_tokens?: number;
  readonly cost_usd?: number;
}

export interface HumanInput {
  readonly action: HumanAction;
  readonly kind: Planned;
  readonly minutes?: number;
  readonly note?: string;
}

/**
 * Collects what happens inside one harness run: agent calls, operator prompts, human touchpoints,
 * circuit breakers and tool calls. A harness reaches it as `ctx.track` (and the per-concept views
 * `ctx.agents`, `ctx.prompts`, `ctx.hitl`, `ctx.breakers`, `ctx.tools`).
 */
export class RunTracker {
  private readonly calls: AgentCall[] = [];
  private readonly promptEvents: Trace['prompts'] = [];
  private readonly humanEvents: Trace['human'] = [];
  private readonly breakerEvents: CircuitBreakerEvent[] = [];
  private readonly toolEvents: ToolCall[] = [];
  private approval: boolean | undefined;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Records one agent call (prompt in, response out). */
  agentCall(call: AgentCallInput): void {
    this.calls.push(AgentCallSchema.parse({ ...call, at: this.now().toISOString() }));
  }

  /**
   * Times `fn` as an agent call of `role`; `usage` reads tokens and cost from its result.
   * A throw is recorded as a failed call and rethrown.
   */
  async wrapAgentCall<T>(
    meta: { role: string; model?: string; provider?: string },
    fn: () => Promise<T>,
    usage?: (result: T) => TokenUsage,
  ): Promise<T> {
    const started = performance.now();
    try {
      const result = await fn();
      this.agentCall({ ...meta, ...usage?.(result), duration_seconds: (performance.now() - started) / 1000 });
      return result;
    } catch (error) {
      this.agentCall({
        ...meta,
        duration_seconds: (performance.now() - started) / 1000,
        error: messageOf(error),
      });
      throw error;
    }
  }

  /** An operator prompt: planned by the harness design, or unplanned (a correction, a nudge). */
  prompt(kind: Planned, text?: string, role?: string): void {
    this.promptEvents.push({
      kind,
      at: this.now().toISOString(),
      ...(text === undefined ? {} : { text }),
      ...(role === undefined ? {} : { role }),
    });
  }

  /** A human touchpoint: review, edit, approve, reject or answer; planned or unplanned; minutes spent. */
  human(input: HumanInput): void {
    this.humanEvents.push({
      action: input.action,
      kind: input.kind,
      minutes: input.minutes ?? 0,
      at: this.now().toISOString(),
      ...(input.note === undefined ? {} : { note: input.note }),
    });
  }

  /** A circuit breaker fired, e.g. `CB2:review-rejection`. */
  circuitBreaker(type: string, details: { trigger?: string; resolution?: string } = {}): void {
    this.breakerEvents.push({ type, at: this.now().toISOString(), ...details });
  }

  toolCall(call: Partial<ToolCall> & { tool_name: string }): void {
    this.toolEvents.push(ToolCallSchema.parse(call));
  }

  /** Times `fn` as a call of tool `name`; a throw is recorded with status error and rethrown. */
  async wrapToolCall<T>(name: string, args: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await fn();
      this.toolCall({ tool_name: name, args, result, duration: (performance.now() - started) / 1000 });
      return result;
    } catch (error) {
      this.toolCall({
        tool_name: name,
        args,
        result: messageOf(error),
        status: 'error',
        duration: (performance.now() - started) / 1000,
      });
      throw error;
    }
  }

  /** The harness's own verdict on first-pass approval (otherwise derived from approve/reject touchpoints). */
  firstPassApproval(approved: boolean): void {
    this.approval = approved;
  }

  trace(): Trace {
    return {
      agent_calls: [...this.calls],
      agent_invocations: [],
      prompts: [...this.promptEvents],
      human: [...this.humanEvents],
      circuit_breakers: [...this.breakerEvents],
      malformed_events: [],
      ...(this.approval === undefined ? {} : { first_pass_approval: this.approval }),
    };
  }

  toolCalls(): ToolCall[] {
    return [...this.toolEvents];
  }

  /** Per-concept views, so harness code reads `ctx.hitl.review(...)`, `ctx.breakers.fire(...)`. */
  views() {
    return {
      agents: { record: (c: AgentCallInput) => this.agentCall(c), wrap: this.wrapAgentCall.bind(this) },
      prompts: {
        planned: (text?: string, role?: string) => this.prompt('planned', text, role),
        unplanned: (text?: string, role?: string) => this.prompt('unplanned', text, role),
      },
      hitl: {
        record: (h: HumanInput) => this.human(h),
        firstPassApproval: (approved: boolean) => this.firstPassApproval(approved),
      },
      breakers: {
        fire: (type: string, details?: { trigger?: string; resolution?: string }) =>
          this.circuitBreaker(type, details),
      },
      tools: {
        record: (c: Partial<ToolCall> & { tool_name: string }) => this.toolCall(c),
        wrap: this.wrapToolCall.bind(this),
      },
    };
  }
}

export type TrackerViews = ReturnType<RunTracker['views']>;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
