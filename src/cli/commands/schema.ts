import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CliIO } from '../io.ts';
import type { RegisterCommand } from './index.ts';

const EXAMPLES = `
Examples:
  $ harnesseval schema                 # print every JSON Schema as one JSON object
  $ harnesseval schema --out schemas   # write schemas/<kind>.schema.json and print the paths

Then in a YAML file:  # yaml-language-server: $schema=./schemas/suite.schema.json`;

export const register: RegisterCommand = (program, io) => {
  program
    .command('schema')
    .description('write a JSON Schema for each input file kind, for editors')
    .option('--out <dir>', 'directory to write <kind>.schema.json files into')
    .addHelpText('after', EXAMPLES)
    .action(async (opts: { out?: string }) => runSchema(io, opts));
};

async function runSchema(io: CliIO, opts: { out?: string }): Promise<void> {
  const [{ jsonSchemaFor }, { FILE_KINDS }] = await Promise.all([
    import('../../formats/json-schema.ts'),
    import('../../formats/detect.ts'),
  ]);
  if (opts.out === undefined) {
    const all = Object.fromEntries(
      await Promise.all(FILE_KINDS.map(async (kind) => [kind, await jsonSchemaFor(kind)])),
    );
    io.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
    return;
  }
  const dir = resolve(io.cwd, opts.out);
  await mkdir(dir, { recursive: true });
  for (const kind of FILE_KINDS) {
    const path = join(dir, `${kind}.schema.json`);
    await writeFile(path, `${JSON.stringify(await jsonSchemaFor(kind), null, 2)}\n`);
    io.stdout.write(`${join(opts.out, `${kind}.schema.json`)}\n`);
  }
}
