import type { MetricResult } from '../core/experiment.ts';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a metric's figure depends on that is missing, in words to print next to it: the trials
 * still pending (a rate over the decided ones only), costs that are partial (calls without a
 * price), errors left out. Every reporter prints these beside the value, so a figure is never
 * shown as complete when it is not.
 */
export function metricNotes(metric: MetricResult): string[] {
  const d = metric.details;
  const notes: string[] = [];
  const pending = count(d['pending']);
  if (pending > 0) {
    const decided = count(d['decided']) || count(d['trials']);
    const range = d['possible_range'];
    const [lo, hi] = Array.isArray(range) ? range : [];
    const span =
      typeof lo === 'number' && typeof hi === 'number'
        ? ` (${formatBound(metric, lo)}–${formatBound(metric, hi)} once graded)`
        : '';
    notes.push(`${decided} decided, ${pending} pending${span}`);
  }
  const partial = count(d['partial_trials']);
  if (partial > 0)
    notes.push(
      `partial: ${plural(count(d['unpriced_calls']), 'unpriced call')} in ${plural(partial, 'trial')}`,
    );
  const unknown = count(d['unknown_cost']);
  if (unknown > 0 && metric.unit === 'usd')
    notes.push(`${plural(unknown, 'trial')} with no known cost left out`);
  const unknownTokens = count(d['unknown_tokens']);
  if (unknownTokens > 0) notes.push(`${plural(unknownTokens, 'trial')} with no token count left out`);
  const environment = count(d['environment_errors']);
  if (environment > 0) notes.push(`${plural(environment, 'environment error')} left out`);
  const infra = count(d['infra_errors']);
  if (infra > 0) notes.push(`${plural(infra, 'infra error')} left out`);
  return notes;
}

function formatBound(metric: MetricResult, value: number): string {
  if (metric.unit === 'ratio') return `${(value * 100).toFixed(1)}%`;
  if (metric.unit === 'score') return value.toFixed(3);
  return String(Number(value.toPrecision(3)));
}
