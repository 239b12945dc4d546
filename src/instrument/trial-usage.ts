import type { AgentCall, ReportedCost, Usage } from '../core/agent-output.ts';
import { costOf, type PriceTable } from './pricing.ts';

/**
 * The one cost pass: every model call a trial reported (trackers, events, OpenTelemetry spans,
 * transcripts, a gateway) plus the costs reported apart from calls and the adapter's own totals
 * become the trial's usage — tokens and cost — with each call priced once.
 *
 * - A call reported twice under the same `id` counts once (its fields merged).
 * - A call's cost is what was reported for it; otherwise its tokens priced from the table;
 *   otherwise, if it spent tokens, it is unpriced and the trial's cost is `partial`.
 * - The adapter's totals (an HTTP response's `usage`, a harness's returned usage) stand for the
 *   calls when no call was recorded; when calls were, they are the same calls and the calls win.
 * - Costs reported apart from calls (`cost` events) are added.
 */
export interface UsageSources {
  readonly calls: readonly AgentCall[];
  readonly costs?: readonly ReportedCost[] | undefined;
  readonly adapterUsage?: Usage | undefined;
  /** The harness's `model`, for calls and totals that name none. */
  readonly defaultModel?: string | undefined;
}

export type CostStatus = 'complete' | 'partial' | 'unknown';

export interface MergedUsage {
  /** The calls, deduplicated, each with `cost_usd` when it is known (`metadata.cost_from` says how). */
  readonly calls: AgentCall[];
  readonly usage: Usage;
  readonly status: CostStatus;
  /** Where the cost came from. */
  readonly source: 'reported' | 'price_table' | 'reported+price_table' | 'unknown';
}

const spent = (c: { tokens_in: number; tokens_out: number }) => c.tokens_in + c.tokens_out > 0;

/** Calls with the same id are one call reported twice: the first report, completed by the others. */
export function dedupeCalls(calls: readonly AgentCall[]): AgentCall[] {
  const out: AgentCall[] = [];
  const byId = new Map<string, number>();
  for (const call of calls) {
    const at = call.id === undefined ? undefined : byId.get(call.id);
    if (at === undefined) {
      if (call.id !== undefined) byId.set(call.id, out.length);
      out.push(call);
      continue;
    }
    const first = out[at]!;
    out[at] = {
      ...call,
      ...first,
      tokens_in: Math.max(first.tokens_in, call.tokens_in),
      tokens_out: Math.max(first.tokens_out, call.tokens_out),
      cached_tokens: Math.max(first.cached_tokens, call.cached_tokens),
      ...(first.cache_write_tokens === undefined && call.cache_write_tokens === undefined
        ? {}
        : { cache_write_tokens: Math.max(first.cache_write_tokens ?? 0, call.cache_write_tokens ?? 0) }),
      ...(first.cost_usd === undefined && call.cost_usd === undefined
        ? {}
        : { cost_usd: first.cost_usd ?? call.cost_usd }),
      metadata: { ...call.metadata, ...first.metadata },
    };
  }
  return out;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** Merges the sources into the trial's calls and usage (see the module comment). */
export function mergeUsage(sources: UsageSources, prices: PriceTable): MergedUsage {
  const priceMeta = {
    prices_as_of: prices.as_of,
    ...(prices.source === undefined ? {} : { prices_source: prices.source }),
  };
  let reported = false;
  let priced = false;
  let unpriced = 0;
  const calls = dedupeCalls(sources.calls).map((call): AgentCall => {
    if (call.cost_usd !== undefined) {
      reported = true;
      return call;
    }
    const cost = costOf(prices, { ...call, model: call.model ?? sources.defaultModel });
    if (cost !== undefined) {
      priced = true;
      return {
        ...call,
        cost_usd: cost,
        metadata: { ...call.metadata, cost_from: 'price_table', ...priceMeta },
      };
    }
    if (spent(call)) unpriced++;
    return call;
  });
  const extra = sources.costs ?? [];
  if (extra.length > 0) reported = true;
  const adapter = sources.adapterUsage;
  let usage: Usage;
  if (calls.length > 0) {
    const known = calls.filter((c) => c.cost_usd !== undefined);
    const cacheWrites = sum(calls.map((c) => c.cache_write_tokens ?? 0));
    usage = {
      tokens_in: sum(calls.map((c) => c.tokens_in)),
      tokens_out: sum(calls.map((c) => c.tokens_out)),
      cached_tokens: sum(calls.map((c) => c.cached_tokens)),
      ...(cacheWrites > 0 ? { cache_write_tokens: cacheWrites } : {}),
      cost_usd:
        known.length + extra.length > 0
          ? sum(known.map((c) => c.cost_usd ?? 0)) + sum(extra.map((c) => c.cost_usd))
          : null,
    };
  } else {
    const totals = adapter ?? { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null };
    let cost = totals.cost_usd;
    if (cost !== null) reported = true;
    else if (spent(totals)) {
      cost = costOf(prices, { ...totals, model: sources.defaultModel }) ?? null;
      if (cost === null) unpriced++;
      else priced = true;
    }
    const { unpriced_calls: _stale, ...rest } = totals;
    usage = {
      ...rest,
      cost_usd: cost === null && extra.length === 0 ? null : (cost ?? 0) + sum(extra.map((c) => c.cost_usd)),
    };
  }
  if (unpriced > 0) usage = { ...usage, unpriced_calls: unpriced };
  const status: CostStatus = usage.cost_usd === null ? 'unknown' : unpriced > 0 ? 'partial' : 'complete';
  const source =
    reported && priced ? 'reported+price_table' : reported ? 'reported' : priced ? 'price_table' : 'unknown';
  return { calls, usage, status, source };
}
