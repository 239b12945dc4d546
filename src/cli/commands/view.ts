import { type Command, InvalidArgumentError } from 'commander';
import { CliExit, EXIT } from '../exit.ts';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval view                              the default store on a free port of 127.0.0.1
  $ harnesseval view --store ci/harnesseval.db --port 4173 --open
  $ harnesseval view --store postgres://eval@db/harnesseval

Serves the experiments, experiment pages with traces, comparisons, timelines and rubric grading
in the browser, reading the store while runs write to it. The printed URL carries a token: only a
browser that opened it can save grades. Ctrl-C stops the server. See docs/viewer.md.`;

export interface ViewFlags {
  readonly store?: string;
  readonly port: number;
  readonly host: string;
  readonly open?: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('expected a port number 0-65535 (0 picks a free one)');
  return port;
}

/** `harnesseval view`: the local web viewer over the store. */
export function register(program: Command, io: CliIO): void {
  program
    .command('view')
    .description(
      'browse experiments, traces, comparisons and timelines, and grade rubrics, in a local web viewer',
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 0)
    .option(
      '--host <address>',
      'address to bind (anything but loopback exposes the store to the network)',
      '127.0.0.1',
    )
    .option('--open', 'open the URL in the default browser')
    .addHelpText('after', examples)
    .action(async (flags: ViewFlags) => {
      const { view } = await import('./view-action.ts');
      const status = await view(flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}
