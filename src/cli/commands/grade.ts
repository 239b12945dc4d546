import type { Command } from 'commander';
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
  program
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
}
