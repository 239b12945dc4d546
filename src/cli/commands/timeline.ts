import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval timeline                                   the only harness lineage in the store
  $ harnesseval timeline --harness tf-product-dev-harness --suite product-dev-core-v1
  $ harnesseval timeline --harness my-agent --metric success_rate --metric cost_per_task
  $ harnesseval timeline --harness my-agent -o timeline.html
  $ harnesseval timeline --harness my-agent --per-version pooled --adjust bh

Completed experiments of one harness (by name) on one suite, one point per version, in version
order (semantic versions; else the harness config's metadata.released; else run time). A version
run several times shows its latest run, or all runs pooled as epochs (--per-version pooled).
Default metrics: hitl_unplanned, first_pass_approval_rate, cost_per_task, overall_score (those the
experiments have). ▲/▼ marks a significant rise/fall against the previous version (paired test over
shared tasks, adjusted over every step in the table); each metric also gets a trend test over the
whole lineage (slope per version, and first → last). See docs/statistics.md.
`;

export interface TimelineFlags {
  readonly harness?: string;
  readonly suite?: string;
  readonly metric?: string[];
  readonly format?: 'console' | 'markdown' | 'json' | 'html';
  readonly output?: string;
  readonly alpha?: number;
  readonly adjust?: 'holm' | 'bh' | 'none';
  readonly perVersion?: 'latest' | 'pooled';
  readonly store?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseAlpha(value: string): number {
  const alpha = Number(value);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError('expected a number between 0 and 1');
  return alpha;
}

/** `harnesseval timeline`: one harness lineage on one suite over time. */
export function register(program: Command, io: CliIO): void {
  program
    .command('timeline')
    .description('show one harness lineage on one suite over time, with sparklines and significant changes')
    .option('--harness <name>', 'harness name (default: the only one in the store)')
    .option('--suite <id>', "suite id (default: the harness's only suite)")
    .option('--metric <name>', 'a metric column (repeatable)', collect)
    .addOption(
      new Option(
        '-f, --format <format>',
        'output format (default: console, or from the -o extension)',
      ).choices(['console', 'markdown', 'json', 'html']),
    )
    .option('-o, --output <file>', 'write the timeline to FILE instead of stdout')
    .option('--alpha <a>', 'significance level (default 0.05)', parseAlpha)
    .addOption(
      new Option(
        '--adjust <method>',
        'p-value adjustment over the steps of the table (default holm)',
      ).choices(['holm', 'bh', 'none']),
    )
    .addOption(
      new Option(
        '--per-version <how>',
        'a version with several runs: its latest run, or all pooled (default latest)',
      ).choices(['latest', 'pooled']),
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .addHelpText('after', examples)
    .action(async (flags: TimelineFlags) => {
      const { timelineAction } = await import('./timeline-action.ts');
      await timelineAction(flags, io);
    });
}
