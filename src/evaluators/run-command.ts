/** The command runner moved to util/ so that the sandbox can use it too; evaluators import it from here. */
export { type CommandOutcome, type CommandRun, runCommand } from '../util/run-command.ts';
