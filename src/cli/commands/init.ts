import { InvalidArgumentError, Option } from 'commander';
import { CliExit, EXIT } from '../exit.ts';
import type { CliIO } from '../io.ts';
import type { RegisterCommand } from './index.ts';
import { INIT_ADAPTERS } from './init-harness.ts';

const examples = `
Examples:
  $ harnesseval init                      # asks for the name, domain and adapter on a terminal
  $ harnesseval init . --adapter http --port 8787 --yes
  $ harnesseval init my-project --adapter cli --name support-bot --domain support

Writes evals/ (suite.yaml, tasks/, rubric.yaml, harness.yaml and a sample harness), evals/README.md
and .github/workflows/harnesseval.yml into the folder (default: the current one). Nothing is
overwritten: when any of these files exists, init writes nothing and says which.
On a terminal it asks for what the flags do not give (--yes takes the defaults); otherwise it
uses the flags and the defaults.

Exit status: 0 written, 1 a file exists already, 2 wrong usage.`;

export interface InitFlags {
  adapter?: string;
  name?: string;
  domain?: string;
  port?: number;
  yes: boolean;
}

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535)
    throw new InvalidArgumentError('--port must be a whole number from 1 to 65535');
  return n;
};

export const register: RegisterCommand = (program, io: CliIO) => {
  program
    .command('init')
    .description('scaffold a suite, a harness config, a CI workflow and a README')
    .argument('[dir]', 'the project folder', '.')
    .addOption(new Option('--adapter <name>', 'how the harness is run').choices([...INIT_ADAPTERS]))
    .option('--name <name>', 'suite and harness name (lower case, digits, dashes; default: the folder name)')
    .option('--domain <domain>', 'the suite’s domain (default: general)')
    .option('--port <n>', 'port of the sample HTTP harness (http adapter; default 8787)', port)
    .option('-y, --yes', 'take the defaults for whatever the flags do not give; never ask', false)
    .addHelpText('after', examples)
    .action(async (dir: string, flags: InitFlags) => {
      const { init } = await import('./init-action.ts');
      const status = await init(dir, flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
};
