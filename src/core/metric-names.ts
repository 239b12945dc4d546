/**
 * Metric names that were renamed, old -> new. `latency` meant the agent's latency in the console
 * but trial duration elsewhere; it is now `agent_latency` (what the adapter measured around the
 * agent call), apart from `trial_duration` (wall clock including checks). Stored experiments, suite
 * files, thresholds and command-line flags that use an old name keep working.
 */
export const RENAMED_METRICS: Readonly<Record<string, string>> = {
  latency: 'agent_latency',
  latency_p50: 'agent_latency_p50',
  latency_p95: 'agent_latency_p95',
};

/** The current name of a metric (an old name maps to its new one). */
export function canonicalMetricName(name: string): string {
  return Object.hasOwn(RENAMED_METRICS, name) ? (RENAMED_METRICS[name] ?? name) : name;
}
