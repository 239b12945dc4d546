import type { Experiment } from '../../core/experiment.ts';

export const IMPORT_TOOLS = ['harbor', 'inspect', 'promptfoo'] as const;
export type ImportTool = (typeof IMPORT_TOOLS)[number];

/** A field of the source that the importer could not map, and in how many places it occurred. */
export interface UnmappedField {
  readonly field: string;
  readonly count: number;
  readonly reason: string;
}

export interface ImportOptions {
  /** The path as the user typed it, for messages and the experiment's provenance. */
  readonly shown: string;
  /** Store the experiments under this suite id (to compare with a native run of the same tasks). */
  readonly suiteId?: string | undefined;
  /**
   * A trial passes when its main score is at least this (default 1: full marks; promptfoo: its own
   * verdict, `success`, unless this is given).
   */
  readonly passThreshold?: number | undefined;
  /** More exception types (Harbor) to count as infrastructure errors. */
  readonly infraExceptions?: readonly string[] | undefined;
}

/**
 * What an importer returns: core experiments (records filled, metrics not yet computed) and the
 * fields it could not map. Nothing downstream knows where a run came from but
 * `experiment.metadata.import`.
 */
export interface ImportedRuns {
  readonly tool: ImportTool;
  readonly experiments: Experiment[];
  readonly unmapped: UnmappedField[];
}
