import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import type { RunRecordDraft } from '../../core/run-record.ts';
import { atifToTrace } from '../../formats/atif.ts';
import { readAtifFile } from '../../formats/atif-file.ts';
import { importedExperiment, isoTime, numberEpochs } from './experiment-draft.ts';
import { type HarborTrial, harborRecord } from './harbor-record.ts';
import {
  type HarborJobResult,
  HarborJobResultSchema,
  HarborRewardFileSchema,
  HarborTrialResultSchema,
} from './harbor-schema.ts';
import { readForeignJson } from './json-document.ts';
import type { ImportedRuns, ImportOptions } from './types.ts';
import { UnmappedFields } from './unmapped.ts';

const TAIL_CHARS = 2000;

function isTrialDir(dir: string): boolean {
  return existsSync(join(dir, 'result.json')) && existsSync(join(dir, 'agent'));
}

/** The trial folders of a job folder (or the folder itself when it is one trial). */
function trialDirs(dir: string): string[] {
  if (isTrialDir(dir)) return [dir];
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    throw new HarnessEvalError('not_found', `cannot read the folder ${dir}`, { cause: error });
  }
  return entries
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory() && existsSync(join(path, 'result.json')));
}

async function readRewardFile(
  dir: string,
  shown: string,
): Promise<Record<string, number | null> | undefined> {
  // Harbor reads reward.json, then reward.txt (models/trial/paths.py); its template says rewards.json.
  for (const name of ['reward.json', 'rewards.json']) {
    const path = join(dir, 'verifier', name);
    if (existsSync(path)) return readForeignJson(path, `${shown}/verifier/${name}`, HarborRewardFileSchema);
  }
  const txt = join(dir, 'verifier', 'reward.txt');
  if (!existsSync(txt)) return undefined;
  const text = (await readFile(txt, 'utf8')).trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value))
    throw new HarnessEvalError('invalid_input', `${shown}/verifier/reward.txt is not a reward`, {
      diagnostics: [
        {
          file: `${shown}/verifier/reward.txt`,
          line: 1,
          col: 1,
          path: '',
          message: `${JSON.stringify(text.slice(0, 40))} is not a number`,
          expected: 'a number such as 1 or 0.5',
          severity: 'error',
        },
      ],
    });
  return { reward: value };
}

async function readTail(path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const text = await readFile(path, 'utf8');
  return text.length <= TAIL_CHARS ? text : text.slice(-TAIL_CHARS);
}

async function readTrial(dir: string, shown: string): Promise<HarborTrial> {
  const result = await readForeignJson(
    join(dir, 'result.json'),
    `${shown}/result.json`,
    HarborTrialResultSchema,
  );
  const trajectoryPath = join(dir, 'agent', 'trajectory.json');
  const trajectory = existsSync(trajectoryPath)
    ? atifToTrace(await readAtifFile(trajectoryPath, `${shown}/agent/trajectory.json`))
    : undefined;
  const rewardFile = result.verifier_result?.rewards == null ? await readRewardFile(dir, shown) : undefined;
  return {
    result,
    shown,
    trajectory,
    rewardFile,
    verifierTail: await readTail(join(dir, 'verifier', 'test-stdout.txt')),
  };
}

/** Harbor's eval key: agent x model x dataset (models/job/result.py `evals`). */
function groupKey(trial: HarborTrial): { key: string; agent: string; model: string; dataset: string } {
  const r = trial.result;
  const agent = r.agent_info.name;
  const model = r.agent_info.model_info?.name ?? r.config?.agent?.model_name ?? 'no-model';
  const dataset = r.source ?? 'local';
  return { key: `${agent}__${model}__${dataset}`, agent, model, dataset };
}

/**
 * A Harbor job folder (`jobs/<job>/`: result.json, and one folder per trial with result.json,
 * agent/trajectory.json, verifier/reward.*) as experiments, one per agent x model x dataset.
 */
export async function importHarborJob(dir: string, options: ImportOptions): Promise<ImportedRuns> {
  const dirs = trialDirs(dir);
  if (dirs.length === 0)
    throw new HarnessEvalError('invalid_input', `${options.shown} is not a Harbor job folder`, {
      diagnostics: [
        {
          file: options.shown,
          line: 0,
          col: 0,
          path: '',
          message: 'no trial folder with a result.json in it',
          expected: 'a Harbor job folder (jobs/<job>/<trial>/result.json)',
          severity: 'error',
        },
      ],
    });
  const jobFile = join(dir, 'result.json');
  const job: HarborJobResult | undefined =
    dirs[0] !== dir && existsSync(jobFile)
      ? await readForeignJson(jobFile, `${options.shown}/result.json`, HarborJobResultSchema)
      : undefined;
  const trials: HarborTrial[] = [];
  for (const trialDir of dirs) {
    const shown = trialDir === dir ? options.shown : `${options.shown}/${basename(trialDir)}`;
    trials.push(await readTrial(trialDir, shown));
  }
  const jobName = basename(dir);
  const fallbackTime = isoTime(job?.started_at) ?? new Date().toISOString();
  const unmapped = new UnmappedFields();
  const infra = new Set(options.infraExceptions ?? []);
  const passThreshold = options.passThreshold ?? 1;
  const groups = new Map<string, HarborTrial[]>();
  for (const trial of trials) {
    const { key } = groupKey(trial);
    groups.set(key, [...(groups.get(key) ?? []), trial]);
  }
  const drafts = [...groups].map(([key, members]) => {
    const ordered = [...members].sort(
      (a, b) =>
        (a.result.started_at ?? '').localeCompare(b.result.started_at ?? '') ||
        a.result.trial_name.localeCompare(b.result.trial_name),
    );
    const epochs = numberEpochs(ordered, (t) => t.result.task_name);
    const records: RunRecordDraft[] = ordered.map((trial) => ({
      ...harborRecord(trial, { passThreshold, infra, fallbackTime, unmapped }),
      epoch: epochs.get(trial) ?? 0,
    }));
    return { key, members: ordered, records };
  });
  const list = unmapped.list();
  const experiments = drafts.map(({ key, members, records }) => {
    const { agent, model, dataset } = groupKey(members[0]!);
    const first = members[0]!.result;
    const starts = members
      .map((m) => isoTime(m.result.started_at))
      .filter((t) => t !== undefined)
      .sort();
    const ends = members.map((m) => isoTime(m.result.finished_at));
    const unfinished = ends.some((t) => t === undefined);
    return importedExperiment({
      tool: 'harbor',
      sourceId: job?.id ?? jobName,
      group: key,
      name: key,
      source: options.shown,
      harness: {
        name: agent,
        version: first.agent_info.version,
        adapter: 'harbor',
        ...(model === 'no-model' ? {} : { model: records[0]?.harness_config.model ?? model }),
        metadata: {
          harbor_agent: agent,
          ...(first.config?.agent?.kwargs == null ? {} : { kwargs: first.config.agent.kwargs }),
        },
      },
      suiteId: options.suiteId ?? dataset,
      createdAt: isoTime(job?.started_at) ?? starts[0] ?? fallbackTime,
      ...(unfinished
        ? {}
        : {
            finishedAt:
              isoTime(job?.finished_at) ??
              ends
                .filter((t) => t !== undefined)
                .sort()
                .at(-1),
          }),
      status: unfinished ? 'interrupted' : 'completed',
      records,
      metadata: {
        harbor: { job_name: jobName, ...(job?.id === undefined ? {} : { job_id: job.id }), dataset },
      },
      unmapped: list,
    });
  });
  return { tool: 'harbor', experiments, unmapped: list };
}
