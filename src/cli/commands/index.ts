import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { register as lint } from './lint.ts';
import { register as load } from './load.ts';
import { register as schema } from './schema.ts';
import { register as validate } from './validate.ts';

/** A command file's export: it adds one command (flags, help with examples, action) to the program. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** Every command, in the order `--help` lists them. Commands load heavy modules inside their action. */
export const commands: readonly RegisterCommand[] = [validate, load, lint, schema];
