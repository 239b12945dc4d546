import type { DomainComparison } from '../../compare/by-domain.ts';
import { formatDifference, formatInterval, formatPValue } from '../../metrics/format.ts';
import type { Timeline, TimelinePoint } from '../../timeline/timeline.ts';

/**
 * Per version step whose tasks span several domains: each domain's change with its p, and the
 * pooled stratified change (docs/statistics.md, "Across domains"), as plain lines for the
 * console and Markdown timelines. The caller escapes them.
 */
export function timelineDomainLines(timeline: Timeline): string[] {
  const lines: string[] = [];
  timeline.points.forEach((point, i) => {
    const step = point.by_domain;
    const previous = timeline.points[i - 1];
    if (step === undefined || previous === undefined) return;
    lines.push(`By domain, ${point.version} vs ${previous.version} (${weights(step)}; p unadjusted):`);
    for (const m of step.metrics) {
      const unit = unitOf(timeline, point, m.name);
      if (m.refused !== null) {
        lines.push(`  ${m.name}: not pooled (${m.refused})`);
        continue;
      }
      const domains = m.per_domain
        .map((d) =>
          d.test === null
            ? `${d.domain} n/a`
            : `${d.domain} ${formatDifference(unit, d.test.mean_difference)} (p ${formatPValue(d.test.p_value)})`,
        )
        .join(', ');
      const p = m.pooled;
      const pooled =
        p === null || p.test === null
          ? `pooled ${formatDifference(unit, p?.mean_difference ?? null)}, no test${p?.reason ? ` (${p.reason})` : ''}`
          : `pooled ${formatDifference(unit, p.mean_difference)} ${formatInterval(unit, p.ci95, { difference: true })} p ${formatPValue(p.p_value)}${p.significant ? ' *' : ''}`;
      lines.push(`  ${m.name}: ${domains}; ${pooled}`);
    }
  });
  return lines;
}

function weights(step: DomainComparison): string {
  const how = step.weighting === 'equal' ? 'equal weights' : 'weights by tasks';
  return `${how}: ${step.domains.map((d) => `${d.name} ${d.shared_tasks} tasks`).join(', ')}`;
}

function unitOf(timeline: Timeline, point: TimelinePoint, name: string) {
  const j = timeline.metrics.findIndex((m) => m.name === name);
  return { formatted_value: point.cells[j]?.formatted_value ?? '', unit: timeline.metrics[j]?.unit };
}
