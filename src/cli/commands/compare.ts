import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Threshold } from '../../core/suite.ts';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';
import { parseThresholdArg } from '../threshold-arg.ts';

const examples = `
Examples:
  $ harnesseval compare exp-20261201-084403 exp-20261202-091512   two stored experiments (unique id prefixes)
  $ harnesseval compare latest:my-agent@0.3.1 latest:my-agent
  $ harnesseval compare main.json pr.json --format markdown -o comment.md
  $ harnesseval compare main.json pr.json --fail-on-regression \\
      --threshold success_rate:max_regression=0.05,require_significant=true
  $ harnesseval compare A B C --metric success_rate --metric cost_per_task

  $ harnesseval compare main.json pr.json --adjust bh --exclude-flaky
  $ harnesseval compare main.json pr.json --sequential --margin 0.05
  $ harnesseval compare cross-main.json cross-pr.json --weights tasks   tasks of several domains

A is the baseline; each further experiment is compared with it. Everything — the change, its
direction, the interval, p and any gate — is over the tasks both ran ("paired over N of M tasks");
tasks only one side ran are listed. Pass/fail metrics with one epoch use McNemar's exact test, other
metrics (and pass rates over epochs) the paired t test; p-values are adjusted over the metrics
(--adjust, Holm by default) and "significant" uses the adjusted one; a gate on one metric uses its
own test. When the shared tasks span several domains (a suite gathering several suites' tasks), a
"By domain" section adds each domain's paired test and a pooled stratified test per metric, with
the weights stated (--weights equal, the default, or tasks). See docs/statistics.md. Regression rules come from the candidate's suite thresholds (or
--suite FILE) and --threshold; with --fail-on-regression and no rules, any significant regression fails.
Exit status: 0 ok, 1 a regression rule broken (with --fail-on-regression) or an error, 2 usage.
`;

export interface CompareFlags {
  readonly format?: 'console' | 'markdown' | 'json' | 'html';
  readonly output?: string;
  readonly metric?: string[];
  readonly threshold?: Record<string, Threshold>;
  readonly failOnRegression?: boolean;
  readonly suite?: string;
  readonly alpha?: number;
  readonly adjust?: 'holm' | 'bh' | 'none';
  readonly excludeFlaky?: boolean;
  readonly sequential?: boolean;
  readonly margin?: number;
  readonly store?: string;
  readonly weights?: 'equal' | 'tasks';
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseAlpha(value: string): number {
  const alpha = Number(value);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError('expected a number between 0 and 1');
  return alpha;
}

function parseMargin(value: string): number {
  const margin = Number(value);
  if (value.trim() === '' || !(margin > 0 && margin <= 1))
    throw new InvalidArgumentError('expected a difference in (0, 1], in the metric unit (0.05 = 5 points)');
  return margin;
}

/** `harnesseval compare A B [C ...]`: paired comparison of experiments, with regression gates. */
export function register(program: Command, io: CliIO): void {
  program
    .command('compare')
    .description(
      'compare experiments against a baseline: deltas, paired statistics, flipped tasks, regression gates',
    )
    .argument(
      '<baseline>',
      'experiment id (or unique prefix), latest:HARNESS[@VERSION], or an exported FILE.json',
    )
    .argument('<candidates...>', 'one or more experiments to compare with the baseline')
    .addOption(
      new Option(
        '-f, --format <format>',
        'output format (default: console, or from the -o extension)',
      ).choices(['console', 'markdown', 'json', 'html']),
    )
    .option('-o, --output <file>', 'write the report to FILE instead of stdout')
    .option('--metric <name>', 'compare only this metric (repeatable)', collect)
    .option(
      '--threshold <rule>',
      'regression rule METRIC:KEY=VALUE (keys: minimum, maximum, max_regression, require_significant; repeatable)',
      parseThresholdArg,
    )
    .option('--fail-on-regression', 'exit 1 when a regression rule is broken')
    .option('--suite <file>', "read thresholds from this suite file (default: the candidate's suite file)")
    .option('--alpha <a>', 'significance level of the paired tests (default 0.05)', parseAlpha)
    .addOption(
      new Option('--adjust <method>', 'p-value adjustment over the metrics (default holm)').choices([
        'holm',
        'bh',
        'none',
      ]),
    )
    .option('--exclude-flaky', 'leave out tasks whose verdict flips between attempts of the same version')
    .option('--sequential', 'an always-valid sequential verdict (confidence sequence) for rates and scores')
    .option(
      '--margin <d>',
      'with --sequential: differences within ±d do not matter (default 0.05)',
      parseMargin,
    )
    .addOption(
      new Option(
        '--weights <how>',
        'domain weights of the pooled stratified test: equal (default) or tasks (by shared task count)',
      ).choices(['equal', 'tasks']),
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .addHelpText('after', examples)
    .action(async (baseline: string, candidates: string[], flags: CompareFlags) => {
      const { compareAction } = await import('./compare-action.ts');
      await compareAction([baseline, ...candidates], flags, io);
    });
}
