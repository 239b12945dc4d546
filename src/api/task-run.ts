import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { experimentToJson } from '../store/json-io.ts';

export interface SaveOptions {
  /** Environment whose secret-looking values are scrubbed from the file (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The result of `evaluator.run()`: the seed-004 run record, with `summary()` and `save()`. */
export class TaskRun {
  /** `experiment` is the one-task experiment the record belongs to (its metrics, environment). */
  constructor(
    readonly record: RunRecord,
    readonly experiment: Experiment,
  ) {}

  get runId(): string {
    return this.record.run_id;
  }
  get outcome(): RunRecord['outcome'] {
    return this.record.outcome;
  }
  get metrics(): RunRecord['metrics'] {
    return this.record.metrics;
  }
  get scores(): RunRecord['scores'] {
    return this.record.scores;
  }

  /** A short human-readable summary: outcome, scores, process metrics, cost and time. */
  summary(): string {
    const r = this.record;
    const m = r.metrics;
    const pct = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(2));
    const lines = [
      `Run ${r.run_id} — task ${r.task_id} — ${r.harness_config.name} v${r.harness_config.version}`,
      `outcome: ${r.outcome}${r.error === undefined ? '' : ` (${r.error})`}`,
      `duration: ${r.duration_seconds.toFixed(1)}s  cost: ${r.cost_usd === null ? 'n/a' : `$${r.cost_usd.toFixed(4)}`}  tokens: ${m.tokens_in} in / ${m.tokens_out} out`,
      `prompts: ${m.prompts_total} (${m.prompts_planned} planned, ${m.prompts_unplanned} unplanned)  HITL: ${m.hitl_total} (${m.hitl_planned} planned, ${m.hitl_unplanned} unplanned)`,
      `first-pass approval: ${m.first_pass_approval === null ? 'n/a' : m.first_pass_approval ? 'yes' : 'no'}  circuit breakers: ${m.circuit_breakers_fired}${m.circuit_breaker_types.length > 0 ? ` (${m.circuit_breaker_types.join(', ')})` : ''}`,
      `acceptance criteria: ${m.acceptance_criteria_passed}/${m.acceptance_criteria_total} passed`,
      `scores: ${Object.entries(r.scores)
        .map(([k, v]) => `${k}=${pct(v)}`)
        .join('  ')}`,
    ];
    for (const c of r.criteria)
      lines.push(`  ${c.status.padEnd(7)} ${c.id}${c.explanation ? ` — ${c.explanation}` : ''}`);
    return lines.join('\n');
  }

  /**
   * Writes `<dir>/<run_id>.json` (the folder is created) and returns the file path. The file is
   * the experiment export that `harnesseval report FILE` and `harnesseval runs import FILE` read —
   * a one-record experiment — with secret environment values redacted as the store does.
   */
  async save(dir: string, options: SaveOptions = {}): Promise<string> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${this.record.run_id.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
    const experiment: Experiment = { ...this.experiment, records: [this.record] };
    await writeFile(file, experimentToJson(experiment, options), 'utf8');
    return file;
  }

  toJSON(): RunRecord {
    return this.record;
  }
}
