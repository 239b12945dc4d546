import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { register as registerCompare } from './compare.ts';
import { register as registerGrade } from './grade.ts';
import { register as registerIngestOtel } from './ingest-otel.ts';
import { register as registerLint } from './lint.ts';
import { register as registerLoad } from './load.ts';
import { register as registerPower } from './power.ts';
import { register as registerReport } from './report.ts';
import { register as registerRun } from './run.ts';
import { register as registerRuns } from './runs.ts';
import { register as registerSchema } from './schema.ts';
import { register as registerTimeline } from './timeline.ts';
import { register as registerValidate } from './validate.ts';

/** A command file's export: it adds one command (flags, help with examples, action) to the program. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** Every command, in the order `--help` lists them. Commands load heavy modules inside their action. */
export const commands: readonly RegisterCommand[] = [
  registerRun,
  registerValidate,
  registerLoad,
  registerLint,
  registerReport,
  registerRuns,
  registerCompare,
  registerTimeline,
  registerPower,
  registerGrade,
  registerIngestOtel,
  registerSchema,
];
