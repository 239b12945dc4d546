import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { outputText } from '../../core/agent-output.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { diffText, workspaceDiff } from '../../runner/workspace-diff.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { escapeControlExcept, truncate } from '../../util/terminal-text.ts';
import { EXIT, reportError } from '../exit.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import { openCliStore, storeLocation } from '../store-location.ts';
import type { GradeFlags } from './grade.ts';

/** The `grade` command's work (loaded when the command runs). */
export async function grade(id: string, flags: GradeFlags, io: CliIO): Promise<number> {
  const store = await openCliStore(storeLocation(flags.store, io));
  try {
    let experiment = await findExperiment(store, id);
    const { loadExperimentSuite } = await import('../../plugins/file-plugins.ts');
    const plugins = await invocationPlugins(io);
    const suite = await loadExperimentSuite(experiment, plugins);
    const grader = flags.grader ?? safeUser();
    const input = io.stdin ?? process.stdin;
    const reader = createInterface({ input, terminal: false });
    const lines = reader[Symbol.asyncIterator]();
    const ask = async (question: string): Promise<string | undefined> => {
      io.stdout.write(question);
      const next = await lines.next();
      return next.done ? undefined : next.value.trim();
    };
    const { pendingCriteria, saveGrades } = await import('../../scoring/grading.ts');
    let graded = 0;
    let quit = false;
    // What is left to grade, counted first so the grader sees "criterion N of M".
    const todo = pendingCriteria(experiment, suite, { task: flags.task });
    try {
      for (const [position, item] of todo.entries()) {
        if (quit) break;
        const { record, task, criterionId } = item;
        if (item.rubric === undefined) {
          io.stderr.write(`no rubric for task ${record.task_id}; skipping ${criterionId}\n`);
          continue;
        }
        io.stdout.write(`\n[criterion ${position + 1} of ${todo.length}]`);
        io.stdout.write(
          await describeTrial(
            record,
            task === undefined
              ? undefined
              : String(typeof task.input === 'string' ? task.input : JSON.stringify(task.input)),
            item.description,
            task?.files['codebase'],
          ),
        );
        const levels: Record<string, number> = {};
        for (const dimension of item.dimensions) {
          io.stdout.write(`\n  ${dimension.name} (weight ${dimension.weight}):\n`);
          for (const level of [1, 2, 3, 4] as const)
            io.stdout.write(`    ${level}: ${dimension.levels[level]}\n`);
          let answer = await ask('  level [1-4], s = skip, q = save and quit: ');
          while (answer !== undefined && !/^[1-4sq]$/i.test(answer))
            answer = await ask('  please answer 1, 2, 3, 4, s or q: ');
          if (answer === undefined || answer.toLowerCase() === 'q') {
            quit = true;
            break;
          }
          if (answer.toLowerCase() !== 's') levels[dimension.name] = Number(answer);
        }
        if (Object.keys(levels).length > 0) {
          // Saved criterion by criterion, so a grader who stops (q, Ctrl-C) keeps every grade given.
          experiment = await saveGrades(
            store,
            experiment,
            suite,
            {
              runId: record.run_id,
              criterionId,
              levels,
              grader,
            },
            plugins.metrics,
          );
          graded++;
        }
      }
    } finally {
      // Release the terminal: an open reader on a TTY keeps the process alive after the last answer.
      await lines.return?.();
      reader.close();
      if ('pause' in input && typeof input.pause === 'function') input.pause();
    }
    const left = experiment.records.flatMap((r) => r.criteria).filter((c) => c.status === 'pending').length;
    const { overallScoreText } = await import('../../reporters/record-view.ts');
    io.stdout.write(
      `\ngraded ${graded} criteria as ${grader}; ${left} still pending; overall score ${overallScoreText(experiment)}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  } finally {
    await store.close();
  }
}

async function findExperiment(store: ExperimentStore, id: string): Promise<Experiment> {
  const { resolveExperimentId } = await import('../../store/resolve-id.ts');
  const experiment = await store.getExperiment(await resolveExperimentId(store, id));
  if (experiment === undefined)
    throw new HarnessEvalError('not_found', `no experiment ${id} in the store (see: harnesseval runs list)`);
  return experiment;
}

async function describeTrial(
  record: RunRecord,
  input: string | undefined,
  criterion: string,
  codebase: string | undefined,
): Promise<string> {
  const parts = [
    `\n=== ${record.task_id}${record.epoch > 0 ? ` #${record.epoch}` : ''} — ${criterion}`,
    input === undefined ? '' : `task: ${escapeControlExcept(truncate(input, 2000), '\n\t')}`,
  ];
  if (record.workspace_diff !== undefined) {
    parts.push(`changes:\n${escapeControlExcept(truncate(diffText(record.workspace_diff), 12_000), '\n\t')}`);
  } else if (record.workspace !== undefined && codebase !== undefined) {
    // Records stored before diffs were kept: the kept workspace still shows the change.
    const diff = await workspaceDiff(codebase, record.workspace);
    parts.push(
      `changes in ${record.workspace}:\n${escapeControlExcept(truncate(diffText(diff), 12_000), '\n\t')}`,
    );
  } else if (codebase !== undefined) {
    parts.push('changes: not recorded (a run older than workspace diffs, without --keep-workspaces)');
  }
  parts.push(`output:\n${escapeControlExcept(truncate(outputText(record.output), 4000), '\n\t')}`);
  return `${parts.filter((p) => p !== '').join('\n')}\n`;
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
