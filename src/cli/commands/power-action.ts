import { type PowerReport, powerFromBaseline, powerFromSd } from '../../compare/power-plan.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { loadExperimentRefs } from '../experiment-refs.ts';
import type { CliIO } from '../io.ts';
import type { PowerFlags } from './power.ts';

function num(value: number): string {
  return Number(value.toPrecision(4)).toString();
}

export function renderPowerReport(report: PowerReport): string {
  const lines = [
    `Power analysis: ${escapeControl(report.metric)}, paired comparison, α = ${report.alpha}, power = ${Math.round(report.power * 100)}%`,
  ];
  const b = report.baseline_variance;
  if (report.source === 'baseline' && b) {
    lines.push(
      `Baseline ${escapeControl(report.baseline_id ?? '')}: ${b.tasks} tasks × ${num(b.epochs)} epoch${b.epochs === 1 ? '' : 's'}; ` +
        `variance between tasks ${num(b.between)}, within a task ${num(b.within)}`,
    );
  }
  const p = report.paired_variance;
  lines.push(
    `Paired difference: variance between tasks ${num(p.between)}, within ${num(p.within)}` +
      (report.source === 'baseline' ? ` (correlation ${report.correlation})` : ' (from --sd)'),
    '',
  );
  const plan = report.plan;
  const epochs = `${plan.epochs} epoch${plan.epochs === 1 ? '' : 's'}`;
  if (report.effect !== null && report.tasks_requested === null) {
    lines.push(
      `Tasks needed to detect ${num(report.effect)}: ${plan.tasks ?? 'n/a'} (at ${epochs} per task)`,
    );
  }
  if (plan.tasks !== null && plan.minimum_detectable_effect !== null) {
    lines.push(
      `Detectable effect with ${plan.tasks} tasks at ${epochs}: ${num(plan.minimum_detectable_effect)}`,
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

export async function powerAction(flags: PowerFlags, io: CliIO): Promise<void> {
  const request = {
    effect: flags.effect,
    tasks: flags.tasks,
    epochs: flags.epochs,
    alpha: flags.alpha,
    power: flags.power,
    ...(flags.metric ? { metric: flags.metric } : {}),
  };
  let report: PowerReport;
  if (flags.sd !== undefined) {
    if (flags.effect === undefined && flags.tasks === undefined) {
      throw new HarnessEvalError(
        'usage',
        'with --sd, give --effect (tasks needed) or --tasks (detectable effect)',
      );
    }
    report = powerFromSd(flags.sd, request);
  } else if (flags.baseline !== undefined) {
    const [baseline] = await loadExperimentRefs([flags.baseline], {
      cwd: io.cwd,
      store: flags.store,
      env: io.env,
    });
    if (baseline === undefined) throw new HarnessEvalError('not_found', `no experiment ${flags.baseline}`);
    report = powerFromBaseline(baseline, {
      ...request,
      ...(flags.correlation === undefined ? {} : { correlation: flags.correlation }),
    });
  } else {
    throw new HarnessEvalError('usage', 'give --baseline EXPERIMENT or --sd X');
  }
  io.stdout.write(
    flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderPowerReport(report),
  );
}
