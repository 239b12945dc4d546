import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { comparisonRecords } from '../../compare/record-needs.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import { resolveOutputFormat, VIEW_FORMATS, type ViewFormat } from '../../reporters/output-format.ts';
import {
  renderTimelineConsole,
  renderTimelineHtml,
  renderTimelineMarkdown,
} from '../../reporters/timeline/index.ts';
import { readStoredExperiment } from '../../store/read-experiment.ts';
import type { ExperimentStore, ExperimentSummary } from '../../store/types.ts';
import { buildTimeline, type Timeline } from '../../timeline/timeline.ts';
import { openStoreForReading } from '../experiment-refs.ts';
import { type CliIO, writeLine } from '../io.ts';
import type { TimelineFlags } from './timeline.ts';

/** The one value of `key` among the summaries, or a usage error naming the choices. */
function single(
  summaries: readonly ExperimentSummary[],
  key: 'harness_name' | 'suite_id',
  flag: string,
): string {
  const values = [...new Set(summaries.map((s) => s[key]))];
  const [only] = values;
  if (values.length === 1 && only !== undefined) return only;
  throw new HarnessEvalError(
    'usage',
    `several ${flag === '--harness' ? 'harnesses' : 'suites'} in the store: pass ${flag} (one of: ${values.sort().join(', ')})`,
  );
}

async function lineage(store: ExperimentStore, flags: TimelineFlags): Promise<Experiment[]> {
  const filter = {
    status: 'completed' as const,
    ...(flags.harness ? { harness: flags.harness } : {}),
    ...(flags.suite ? { suite: flags.suite } : {}),
  };
  const summaries = await store.listExperiments(filter);
  if (summaries.length === 0) {
    const what = [flags.harness && `harness "${flags.harness}"`, flags.suite && `suite "${flags.suite}"`]
      .filter(Boolean)
      .join(' on ');
    throw new HarnessEvalError(
      'not_found',
      `no completed experiments${what ? ` of ${what}` : ''} in the store (see: harnesseval runs list)`,
    );
  }
  const harness = flags.harness ?? single(summaries, 'harness_name', '--harness');
  const ofHarness = summaries.filter((s) => s.harness_name === harness);
  const suite = flags.suite ?? single(ofHarness, 'suite_id', '--suite');
  const chosen = ofHarness.filter((s) => s.suite_id === suite);
  // Trial records (a few hundred bytes a trial) unless a metric may read more of a record: a
  // lineage holds every version's experiment at once.
  const records = comparisonRecords(flags.metric);
  const experiments: Experiment[] = [];
  for (const s of chosen) {
    const experiment = await readStoredExperiment(store, s.id, records);
    if (experiment) experiments.push(experiment);
  }
  return experiments;
}

function render(timeline: Timeline, format: ViewFormat): string {
  switch (format) {
    case 'html':
      return renderTimelineHtml(timeline);
    case 'json':
      return `${JSON.stringify(timeline, null, 2)}\n`;
    case 'markdown':
      return renderTimelineMarkdown(timeline);
    case 'console':
      return renderTimelineConsole(timeline);
    default: {
      const unreachable: never = format;
      throw new HarnessEvalError('usage', `unknown format ${String(unreachable)}`);
    }
  }
}

export async function timelineAction(flags: TimelineFlags, io: CliIO): Promise<void> {
  const format = resolveOutputFormat({
    format: flags.format,
    output: flags.output,
    formats: VIEW_FORMATS,
    fallback: 'console',
  });
  const store = await openStoreForReading({ cwd: io.cwd, store: flags.store, env: io.env });
  let experiments: Experiment[];
  try {
    experiments = await lineage(store, flags);
  } finally {
    await store.close();
  }
  const timeline = buildTimeline(experiments, {
    ...(flags.metric ? { metrics: flags.metric } : {}),
    ...(flags.alpha === undefined ? {} : { alpha: flags.alpha }),
    ...(flags.adjust === undefined ? {} : { adjust: flags.adjust }),
    ...(flags.perVersion === undefined ? {} : { perVersion: flags.perVersion }),
  });
  const text = render(timeline, format);
  if (flags.output === undefined) {
    io.stdout.write(text);
    return;
  }
  const target = resolve(io.cwd, flags.output);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
  writeLine(io.stdout, `wrote ${format} timeline to ${flags.output}`);
}
