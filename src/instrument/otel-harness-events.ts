import {
  type CircuitBreakerEvent,
  HumanActionSchema,
  type HumanTouchpoint,
  type OperatorPrompt,
  PlannedSchema,
  type ReportedCost,
} from '../core/agent-output.ts';
import { type Attributes, num, str } from './otel-spans.ts';

/**
 * What the GenAI conventions cannot say — operator prompts, human touchpoints, circuit breakers,
 * first-pass approval and costs outside model calls — a harness reports through OpenTelemetry as
 * span events (or spans) with these names and `harnesseval.*` attributes.
 */
export const HARNESS_EVENT_NAMES = [
  'harnesseval.prompt',
  'harnesseval.human',
  'harnesseval.circuit_breaker',
  'harnesseval.first_pass_approval',
  'harnesseval.cost',
] as const;
export type HarnessEventName = (typeof HARNESS_EVENT_NAMES)[number];

export function isHarnessEventName(name: string): name is HarnessEventName {
  return (HARNESS_EVENT_NAMES as readonly string[]).includes(name);
}

export type HarnessSignal =
  | { readonly kind: 'prompt'; readonly value: OperatorPrompt }
  | { readonly kind: 'human'; readonly value: HumanTouchpoint }
  | { readonly kind: 'circuit_breaker'; readonly value: CircuitBreakerEvent }
  | { readonly kind: 'first_pass_approval'; readonly value: boolean }
  | { readonly kind: 'cost'; readonly value: ReportedCost };

/** One `harnesseval.*` event as what it reports, or why it cannot count. */
export function harnessSignal(
  name: HarnessEventName,
  attrs: Attributes,
  at: string | undefined,
): HarnessSignal | string {
  const role = str(attrs['harnesseval.role']);
  const when = at === undefined ? {} : { at };
  const withRole = role === undefined ? {} : { role };
  switch (name) {
    case 'harnesseval.prompt': {
      const kind = PlannedSchema.safeParse(attrs['harnesseval.prompt.kind']);
      if (!kind.success) return `${name}: harnesseval.prompt.kind must be planned or unplanned`;
      const text = str(attrs['harnesseval.prompt.text']);
      return {
        kind: 'prompt',
        value: { kind: kind.data, ...(text === undefined ? {} : { text }), ...withRole, ...when },
      };
    }
    case 'harnesseval.human': {
      const action = HumanActionSchema.safeParse(attrs['harnesseval.human.action']);
      const kind = PlannedSchema.safeParse(attrs['harnesseval.human.kind']);
      if (!action.success)
        return `${name}: harnesseval.human.action must be review, edit, approve, reject or answer`;
      if (!kind.success) return `${name}: harnesseval.human.kind must be planned or unplanned`;
      const minutes = num(attrs['harnesseval.human.minutes']) ?? 0;
      if (minutes < 0) return `${name}: harnesseval.human.minutes must be >= 0`;
      const note = str(attrs['harnesseval.human.note']);
      return {
        kind: 'human',
        value: {
          action: action.data,
          kind: kind.data,
          minutes,
          ...(note === undefined ? {} : { note }),
          ...when,
        },
      };
    }
    case 'harnesseval.circuit_breaker': {
      const type = str(attrs['harnesseval.circuit_breaker.type']);
      if (type === undefined)
        return `${name}: harnesseval.circuit_breaker.type is required (e.g. CB2:review-rejection)`;
      const trigger = str(attrs['harnesseval.circuit_breaker.trigger']);
      const resolution = str(attrs['harnesseval.circuit_breaker.resolution']);
      return {
        kind: 'circuit_breaker',
        value: {
          type,
          ...(trigger === undefined ? {} : { trigger }),
          ...(resolution === undefined ? {} : { resolution }),
          ...when,
        },
      };
    }
    case 'harnesseval.first_pass_approval': {
      const approved = attrs['harnesseval.first_pass_approval.approved'];
      if (typeof approved !== 'boolean')
        return `${name}: harnesseval.first_pass_approval.approved must be a boolean`;
      return { kind: 'first_pass_approval', value: approved };
    }
    case 'harnesseval.cost': {
      const usd = num(attrs['harnesseval.cost.usd']);
      if (usd === undefined || usd < 0) return `${name}: harnesseval.cost.usd must be a number >= 0`;
      const model = str(attrs['harnesseval.cost.model']);
      return {
        kind: 'cost',
        value: {
          cost_usd: usd,
          tokens_in: 0,
          tokens_out: 0,
          ...withRole,
          ...(model === undefined ? {} : { model }),
        },
      };
    }
  }
}
