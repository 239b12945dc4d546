import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { register as registerAnnotations } from './annotations.ts';
import { register as registerCompare } from './compare.ts';
import { register as registerGrade } from './grade.ts';
import { register as registerIngestAtif } from './ingest-atif.ts';
import { register as registerIngestOtel } from './ingest-otel.ts';
import { register as registerInit } from './init.ts';
import { register as registerLint } from './lint.ts';
import { register as registerLoad } from './load.ts';
import { register as registerPower } from './power.ts';
import { register as registerReport } from './report.ts';
import { register as registerRun } from './run.ts';
import { register as registerRuns } from './runs.ts';
import { register as registerSchema } from './schema.ts';
import { register as registerTimeline } from './timeline.ts';
import { register as registerValidate } from './validate.ts';
import { register as registerView } from './view.ts';
import { register as registerWorker } from './worker.ts';

/** A command file's export: it adds one command (flags, help with examples, action) to the program. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * Every command by name, in the order `--help` lists them. Commands load heavy modules inside
 * their action; `main.ts` registers only the command being run when the arguments name one.
 */
export const commands: readonly { readonly name: string; readonly register: RegisterCommand }[] = [
  { name: 'run', register: registerRun },
  { name: 'validate', register: registerValidate },
  { name: 'load', register: registerLoad },
  { name: 'lint', register: registerLint },
  { name: 'report', register: registerReport },
  { name: 'runs', register: registerRuns },
  { name: 'compare', register: registerCompare },
  { name: 'timeline', register: registerTimeline },
  { name: 'power', register: registerPower },
  { name: 'grade', register: registerGrade },
  { name: 'annotations', register: registerAnnotations },
  { name: 'worker', register: registerWorker },
  { name: 'ingest-otel', register: registerIngestOtel },
  { name: 'ingest-atif', register: registerIngestAtif },
  { name: 'schema', register: registerSchema },
  { name: 'init', register: registerInit },
  { name: 'view', register: registerView },
];
