import { type Command, Option } from 'commander';
import { CliExit, EXIT } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval grade exp-20261130-101500-3fa1
  $ harnesseval grade exp-20261130-101500-3fa1 --grader "Ada Lovelace" --task auth-implementation

For each rubric or human criterion still pending, shows the task, the output (or the changes the
harness made in its kept workspace) and the rubric levels, and asks for a level 1-4 per dimension
(s = skip, q = save and quit). Each grade is stored with the grader's name and the time, and the
experiment's scores and metrics are recomputed.`;

export interface GradeFlags {
  store?: string;
  grader?: string;
  task?: string;
}

export function register(program: Command, io: CliIO): void {
  const grade = program
    .command('grade')
    .description('grade pending rubric criteria of a stored experiment in the terminal')
    .argument('<experiment-id>', 'experiment id (or a unique prefix)')
    .option('--store <location>', STORE_OPTION_HELP)
    .option('--grader <name>', 'your name, stored with each grade (default: the login name)')
    .option('--task <id>', 'only this task')
    .addHelpText('after', examples)
    .action(async (id: string, flags: GradeFlags) => {
      const { grade } = await import('./grade-action.ts');
      const status = await grade(id, flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
  grade
    .command('export')
    .description('write every grade of an experiment (human and judge) as CSV or JSONL')
    .argument('<experiment-id>', 'experiment id (or a unique prefix)')
    .option('--store <location>', STORE_OPTION_HELP)
    .addOption(
      new Option('--format <format>', 'one row per grade').choices(['csv', 'jsonl'] as const).default('csv'),
    )
    .option('-o, --output <file>', 'the file to write (default: stdout)')
    .addHelpText(
      'after',
      `
Columns: experiment_id, run_id, task_id, epoch, criterion, dimension, level, score, grader,
grader_kind, rationale, graded_at, judge_model. The viewer's grading page offers the same file.

Examples:
  $ harnesseval grade export exp-20261130-101500-3fa1 > grades.csv
  $ harnesseval grade export exp-20261130 --format jsonl -o grades.jsonl`,
    )
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      // `--store` after the id is parsed by `grade` itself (it has the same option): merge both.
      const flags = cmd.optsWithGlobals<{ store?: string; format: 'csv' | 'jsonl'; output?: string }>();
      const { exportGrades } = await import('./grade-export-action.ts');
      const status = await exportGrades(id, flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}
