import type { PowerReport } from '../compare/power-plan.ts';
import { escapeControl } from '../util/terminal-text.ts';

// The text form of `harnesseval power` (its JSON form is the report itself).

function num(value: number): string {
  return Number(value.toPrecision(4)).toString();
}

const METHODS = {
  t: 'paired t test (noncentral t power)',
  mcnemar_exact: "McNemar's exact test (exact power)",
} as const;

function correlationText(report: PowerReport): string {
  const r = num(report.correlation);
  if (report.correlation_source === 'observed')
    return `correlation ${r}, observed with ${report.from_id ?? ''}`;
  if (report.correlation_source === 'given') return `correlation ${r}, given`;
  return `correlation ${r}, assumed`;
}

/** The power plan as the terminal shows it. */
export function renderPowerReport(report: PowerReport): string {
  const lines = [
    `Power analysis: ${escapeControl(report.metric)}, paired comparison, α = ${report.alpha}, power = ${Math.round(report.power * 100)}%`,
    `Test planned for: ${METHODS[report.method]}`,
  ];
  const b = report.baseline_variance;
  if (report.source !== 'sd' && b) {
    lines.push(
      `Baseline ${escapeControl(report.baseline_id ?? '')}: ${b.tasks} tasks × ${num(b.epochs)} epoch${b.epochs === 1 ? '' : 's'}; ` +
        (report.binary
          ? `pass rate ${num(report.binary.baseline_rate)}`
          : `variance between tasks ${num(b.between)}, within a task ${num(b.within)}`),
    );
  }
  const p = report.paired_variance;
  if (report.binary) {
    lines.push(
      `Discordant tasks expected: ${num(report.binary.p10)} pass→fail, ${num(report.binary.p01)} fail→pass (${escapeControl(correlationText(report))})`,
      '',
    );
  } else {
    lines.push(
      `Paired difference: variance between tasks ${num(p.between)}, within ${num(p.within)}` +
        (report.source === 'sd' ? ' (from --sd)' : ` (${escapeControl(correlationText(report))})`),
      '',
    );
  }
  const plan = report.plan;
  const epochs = `${plan.epochs} epoch${plan.epochs === 1 ? '' : 's'}`;
  if (report.effect !== null && report.tasks_requested === null) {
    lines.push(
      `Tasks needed to detect ${num(report.effect)}: ${plan.tasks ?? 'n/a'} (at ${epochs} per task)`,
    );
  }
  if (plan.tasks !== null) {
    lines.push(
      `Detectable effect with ${plan.tasks} tasks at ${epochs}: ${plan.minimum_detectable_effect === null ? 'none within the metric range' : num(plan.minimum_detectable_effect)}`,
    );
  }
  if (report.effect !== null && plan.epochs_needed !== null) {
    lines.push(
      `Epochs needed for ${plan.tasks} tasks to detect ${num(report.effect)}: ${plan.epochs_needed}`,
    );
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
