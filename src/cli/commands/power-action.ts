import { type PowerReport, powerFromBaseline, powerFromSd } from '../../compare/power-plan.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { loadExperimentRefs } from '../experiment-refs.ts';
import type { CliIO } from '../io.ts';
import type { PowerFlags } from './power.ts';

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
    if (flags.from !== undefined) throw new HarnessEvalError('usage', '--from needs --baseline, not --sd');
    report = powerFromSd(flags.sd, request);
  } else if (flags.baseline !== undefined) {
    const refs = flags.from === undefined ? [flags.baseline] : [flags.baseline, flags.from];
    const [baseline, from] = await loadExperimentRefs(refs, {
      cwd: io.cwd,
      store: flags.store,
      env: io.env,
    });
    if (baseline === undefined) throw new HarnessEvalError('not_found', `no experiment ${flags.baseline}`);
    if (flags.from !== undefined && flags.correlation !== undefined)
      throw new HarnessEvalError('usage', '--from estimates the correlation: do not give --correlation too');
    report = powerFromBaseline(baseline, {
      ...request,
      ...(flags.correlation === undefined ? {} : { correlation: flags.correlation }),
      ...(from === undefined ? {} : { from }),
    });
  } else {
    throw new HarnessEvalError('usage', 'give --baseline EXPERIMENT or --sd X');
  }
  io.stdout.write(
    flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderPowerReport(report),
  );
}
