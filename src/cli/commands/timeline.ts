import { type Command, Option } from 'commander';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval timeline                                   the only harness lineage in the store
  $ harnesseval timeline --harness tf-product-dev-harness --suite product-dev-core-v1
  $ harnesseval timeline --harness my-agent --metric success_rate --metric cost_per_task
  $ harnesseval timeline --harness my-agent --format markdown > TIMELINE.md

Completed experiments of one harness (by name) on one suite, oldest first. Default metrics:
hitl_unplanned, first_pass_approval_rate, cost_per_task, overall_score (those the experiments
have). A * marks a value that changed significantly against the previous version (paired test).
`;

export interface TimelineFlags {
  readonly harness?: string;
  readonly suite?: string;
  readonly metric?: string[];
  readonly format?: 'console' | 'markdown' | 'json' | 'html';
  readonly store?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
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
      new Option('-f, --format <format>', 'output format')
        .choices(['console', 'markdown', 'json', 'html'])
        .default('console'),
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .addHelpText('after', examples)
    .action(async (flags: TimelineFlags) => {
      const { timelineAction } = await import('./timeline-action.ts');
      await timelineAction(flags, io);
    });
}
