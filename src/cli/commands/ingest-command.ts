import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';

/** What `--format` may be for every `ingest-*` command. */
export const INGEST_FORMATS = ['text', 'json'] as const;

/**
 * One trace format's `ingest-*` command: the skeleton (read the file, parse, map, show as text or
 * JSON, errors located) is `registerIngest`'s; a format says only how to parse and what to show.
 */
export interface IngestDefinition<T> {
  readonly name: string;
  readonly description: string;
  /** The `<file>` argument's help. */
  readonly file: string;
  readonly examples: string;
  /**
   * Parses and maps the file's text (it may import what it needs: it runs only when the command
   * does). Bad input throws `invalid_input` with diagnostics located in `shown`.
   */
  parse(text: string, shown: string): Promise<T>;
  /** What `--format json` prints. */
  json(result: T): unknown;
  /** What `--format text` prints, a line each. */
  text(result: T, shown: string): readonly string[];
}

export function registerIngest<T>(program: Command, io: CliIO, definition: IngestDefinition<T>): void {
  program
    .command(definition.name)
    .description(definition.description)
    .argument('<file>', definition.file)
    .addOption(new Option('--format <format>', 'how to show it').choices(INGEST_FORMATS).default('text'))
    .addHelpText('after', definition.examples)
    .action(async (file: string, flags: { format: (typeof INGEST_FORMATS)[number] }) => {
      const status = await ingest(definition, resolve(io.cwd, file), file, flags.format, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}

async function ingest<T>(
  definition: IngestDefinition<T>,
  path: string,
  shown: string,
  format: (typeof INGEST_FORMATS)[number],
  io: CliIO,
): Promise<number> {
  try {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new HarnessEvalError('not_found', `cannot read ${shown}`, { cause: error });
    }
    const result = await definition.parse(text, shown);
    io.stdout.write(
      format === 'json'
        ? `${JSON.stringify(definition.json(result), null, 2)}\n`
        : `${definition.text(result, shown).join('\n')}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  }
}
