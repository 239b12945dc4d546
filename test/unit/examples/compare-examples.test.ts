import { describe, expect, it } from 'vitest';
import { compareConfigs } from '../../../examples/compare-configs.ts';
import { lineageAvailable } from '../../../examples/lineage-sim/lineage-source.ts';
import { trackTimeline } from '../../../examples/track-timeline.ts';

describe('examples/compare-configs.ts', () => {
  it('compares v0.3.1 with v0.4.0: the seed table with paired statistics', async () => {
    const { comparison, text } = await compareConfigs({ source: 'simulated' });
    expect(comparison.experiments.map((e) => e.label)).toEqual(['v0.3.1', 'v0.4.0']);
    expect(text.split('\n')[0]).toBe('Comparison: tf-product-dev-harness v0.3.1 vs v0.4.0');
    expect(text).toMatch(/^prompts_unplanned\s+\d/m);
    const hitl = comparison.metrics.find((m) => m.name === 'hitl_unplanned');
    expect(hitl?.deltas[0]?.is_improvement).toBe(true);
    expect(hitl?.deltas[0]?.paired?.n).toBe(24);
    expect(hitl?.deltas[0]?.paired?.clustered).toBe(true);
  });
});

describe('examples/track-timeline.ts', () => {
  it('tracks v0.2.0 … v0.5.0 in date order with sparklines', async () => {
    const { timeline, text } = await trackTimeline({ source: 'simulated' });
    expect(timeline.points.map((p) => p.version)).toEqual(['0.2.0', '0.3.0', '0.3.1', '0.4.0', '0.5.0']);
    expect(text).toMatch(/^2026-04-07\s+v0\.2\.0/m);
    expect(text).toMatch(/Unplanned HITL\s+[▁▂▃▄▅▆▇█]{5}/);
  });
});

// The harness lineage (examples/harness-lineage) runs the product-dev suite's real acceptance
// tests: slower, so only the two-version comparison, and only once the lineage is present.
describe.skipIf(!lineageAvailable())('examples on the harness lineage', () => {
  it('compare-configs on examples/harness-lineage v0.3.1 vs v0.4.0', async () => {
    const { comparison, text } = await compareConfigs({ source: 'lineage' });
    expect(comparison.experiments.map((e) => e.label)).toEqual(['v0.3.1', 'v0.4.0']);
    const hitl = comparison.metrics.find((m) => m.name === 'hitl_unplanned');
    expect(hitl?.deltas[0]?.paired).not.toBeNull();
    // v0.3.1 averages about 8 unplanned HITL steps per run (examples/harness-lineage/README.md).
    expect(hitl?.values[0]?.value).toBeGreaterThan(1);
    expect(text).toMatch(/^hitl_unplanned\s/m);
  }, 600_000);
});
