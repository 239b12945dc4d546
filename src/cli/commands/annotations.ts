import { type Command, Option } from 'commander';
import { CliExit, EXIT } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

export function register(program: Command, io: CliIO): void {
  const annotations = program
    .command('annotations')
    .description("export the annotations (a person's label and note on a trial) of a stored experiment");
  annotations
    .command('export')
    .description('write every annotation of an experiment as CSV or JSONL')
    .argument('<experiment-id>', 'experiment id (or a unique prefix)')
    .option('--store <location>', STORE_OPTION_HELP)
    .addOption(
      new Option('--format <format>', 'one row per annotation')
        .choices(['csv', 'jsonl'] as const)
        .default('csv'),
    )
    .option('-o, --output <file>', 'the file to write (default: stdout)')
    .addHelpText(
      'after',
      `
Columns: experiment_id, annotation_id, run_id, task_id, epoch, label, note, author, created_at,
updated_at (empty when never edited). The viewer's experiment page offers the same file.

Examples:
  $ harnesseval annotations export exp-20261130-101500-3fa1 > annotations.csv
  $ harnesseval annotations export exp-20261130 --format jsonl -o annotations.jsonl`,
    )
    .action(async (id: string, flags: { store?: string; format: 'csv' | 'jsonl'; output?: string }) => {
      const { exportAnnotations } = await import('./annotations-action.ts');
      const status = await exportAnnotations(id, flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}
