import { type PowerReport, powerFromBaseline, powerFromSd } from '../../compare/power-plan.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import { renderPowerReport } from '../../reporters/power.ts';
import { loadExperimentRefs } from '../experiment-refs.ts';
import type { CliIO } from '../io.ts';
import type { PowerFlags } from './power.ts';

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
