import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval power --baseline exp-20261201-084403 --effect 0.05  tasks needed to detect +5 points
  $ harnesseval power --baseline latest:my-agent --tasks 40 --epochs 3
  $ harnesseval power --baseline main.json --metric overall_score --effect 0.03 --tasks 100
  $ harnesseval power --baseline main.json --from pr.json --effect 0.05   correlation observed from a pair
  $ harnesseval power --sd 0.3 --effect 0.1                      from a known SD of per-task differences

Effects are absolute, in the metric's unit (0.05 on success_rate = five percentage points). Plans
use the power of the test compare will run: the paired t test (noncentral t), or for one pass/fail
verdict per task McNemar's exact test (exact power by enumeration). From a baseline, variance is
split into between-task and within-task (epoch) parts (Miller 2024); the difference's variance
comes from the observed pair with --from, else from --correlation (default 0: conservative).
Epochs default to what the baseline ran. Without --effect the command reports the effect detectable
with --tasks (default: the baseline's number of tasks). A metric that does not vary is refused.
See docs/statistics.md.
`;

export interface PowerFlags {
  readonly baseline?: string;
  readonly from?: string;
  readonly sd?: number;
  readonly effect?: number;
  readonly tasks?: number;
  readonly epochs?: number;
  readonly metric?: string;
  readonly alpha?: number;
  readonly power?: number;
  readonly correlation?: number;
  readonly format?: 'console' | 'json';
  readonly store?: string;
}

function number(check: (n: number) => boolean, expected: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || !check(n))
      throw new InvalidArgumentError(`expected ${expected}`);
    return n;
  };
}

const positive = number((n) => n > 0, 'a number > 0');
const count = number((n) => Number.isInteger(n) && n >= 1, 'a whole number >= 1');
const probability = number((n) => n > 0 && n < 1, 'a number between 0 and 1');
const correlation = number((n) => n >= -1 && n <= 1, 'a number between -1 and 1');

/** `harnesseval power`: how many tasks and epochs a comparison needs. */
export function register(program: Command, io: CliIO): void {
  program
    .command('power')
    .description(
      'plan a comparison: tasks and epochs needed to detect an effect, or the effect N tasks can detect',
    )
    .addOption(
      new Option(
        '--baseline <experiment>',
        'estimate variances from this experiment (id, latest:HARNESS, FILE.json)',
      ).conflicts('sd'),
    )
    .option(
      '--from <experiment>',
      'a candidate run on the same tasks: estimate the A-B correlation from the pair',
    )
    .option('--sd <x>', 'standard deviation of the per-task paired differences', positive)
    .option('--effect <e>', 'the difference to detect, in the metric unit', positive)
    .option('--tasks <n>', 'number of tasks', count)
    .option('--epochs <k>', 'epochs per task (default: as many as the baseline ran)', count)
    .option('--metric <name>', 'metric whose variance to use (default success_rate)')
    .option('--alpha <a>', 'two-sided significance level (default 0.05)', probability)
    .option('--power <p>', 'power (default 0.8)', probability)
    .option('--correlation <r>', 'expected correlation of A and B across tasks (default 0)', correlation)
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(['console', 'json']).default('console'),
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .addHelpText('after', examples)
    .action(async (flags: PowerFlags) => {
      const { powerAction } = await import('./power-action.ts');
      await powerAction(flags, io);
    });
}
