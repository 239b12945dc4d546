import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, type RunningCli, startCli } from './run-cli.ts';

/** A record as `runs export` writes it, with what the queue tests look at. */
export interface ExportedRecord {
  task_id: string;
  epoch: number;
  attempts: number;
  outcome: string;
  output?: unknown;
  error?: string;
  workspace?: string;
  criteria: { id: string; status: string; grades?: { grader?: string; level?: number }[] }[];
  metrics?: Record<string, unknown>;
  metadata: { worker?: { pid: number; host: string } };
}

export interface ExportedExperiment {
  id: string;
  status: string;
  metrics: { name: string; value: number | null; n: number }[];
  records: ExportedRecord[];
}

/** `runs export ID` from the PostgreSQL store at `url`. */
export async function exportedExperiment(url: string, dir: string, id: string): Promise<ExportedExperiment> {
  const result = await cli(['runs', '--store', url, 'export', id], dir);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as ExportedExperiment;
}

/** `harnesseval worker` processes of one test file; `stopAll` SIGKILLs what is left (afterEach). */
export class WorkerPool {
  readonly #running: RunningCli[] = [];
  readonly #started: RunningCli[] = [];

  constructor(private readonly url: string) {}

  start(
    dir: string,
    options: { jobs?: number; tags?: string; env?: NodeJS.ProcessEnv; verbose?: boolean } = {},
  ): RunningCli {
    const args = ['worker', '--queue', this.url, '-j', String(options.jobs ?? 2)];
    if (options.tags !== undefined) args.push('--tags', options.tags);
    if (options.verbose === true) args.push('--verbose');
    const started = startCli(args, dir, options.env ?? {});
    this.#running.push(started);
    this.#started.push(started);
    return started;
  }

  /** SIGTERM, then the exit status (0: it finished its trials in flight and stopped). */
  async stop(worker: RunningCli): Promise<number | null> {
    worker.child.kill('SIGTERM');
    return (await worker.done).status;
  }

  /** What every worker this pool started (killed ones too) wrote to stderr. */
  stderrOfAll(): string {
    return this.#started.map((w) => w.stderr()).join('\n');
  }

  stopAll(): void {
    for (const worker of this.#running.splice(0))
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  }
}

/** One trial as the fair-agent fixture logs it: its label, when it ran (ms), and its worker's pid. */
export interface AgentRun {
  label: string;
  start: number;
  end: number;
  worker: number;
}

export async function agentRuns(marks: string): Promise<AgentRun[]> {
  const text = await readFile(join(marks, 'log.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AgentRun);
}

/** The most runs that overlapped at one moment. */
export function mostAtOnce(runs: readonly AgentRun[]): number {
  const edges = runs.flatMap((r) => [
    { at: r.start, step: 1 },
    { at: r.end, step: -1 },
  ]);
  // At equal times an end comes first: a run that ends as another starts did not overlap it.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) {
    now += edge.step;
    most = Math.max(most, now);
  }
  return most;
}
