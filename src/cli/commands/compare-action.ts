import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { compareExperiments } from '../../compare/index.ts';
import { comparisonRecords } from '../../compare/record-needs.ts';
import type { Comparison } from '../../compare/types.ts';
import { errorMessage, HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { Threshold } from '../../core/suite.ts';
import { comparisonChartSections } from '../../reporters/comparison/chart-sections.ts';
import {
  renderComparisonConsole,
  renderComparisonHtml,
  renderComparisonMarkdown,
} from '../../reporters/comparison/index.ts';
import { resolveOutputFormat, VIEW_FORMATS } from '../../reporters/output-format.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { CliExit, EXIT } from '../exit.ts';
import { loadExperimentRefs } from '../experiment-refs.ts';
import { type CliIO, invocationPlugins, paint, useColor, writeLine } from '../io.ts';
import type { CompareFlags } from './compare.ts';

type Format = NonNullable<CompareFlags['format']>;

function formatFor(flags: CompareFlags): Format {
  return resolveOutputFormat({
    format: flags.format,
    output: flags.output,
    formats: VIEW_FORMATS,
    fallback: 'console',
  });
}

/** The candidate's suite thresholds: from --suite, else from the suite file the experiment names (if it is still there). */
async function suiteThresholds(
  candidate: Experiment,
  flags: CompareFlags,
  io: CliIO,
): Promise<Record<string, Threshold>> {
  const file = flags.suite ? resolve(io.cwd, flags.suite) : candidate.suite.file;
  if (file === undefined || (!flags.suite && !existsSync(file))) return {};
  const plugins = await invocationPlugins(io);
  if (!flags.suite) {
    // The candidate's own suite: its thresholds are all compare reads of it (a --suite file the
    // user names is loaded whole, so that anything wrong in it is an error).
    const { readThresholdsOnly } = await import('../../formats/thresholds-only.ts');
    const thresholds = readThresholdsOnly(file, plugins);
    if (thresholds !== undefined) return thresholds;
  }
  const { loadSuite } = await import('../../formats/index.ts');
  try {
    return (await loadSuite(file, { plugins })).thresholds;
  } catch (error) {
    if (flags.suite) throw error;
    writeLine(io.stderr, `harnesseval: warning: cannot read thresholds from ${file}: ${errorMessage(error)}`);
    return {};
  }
}

/** With --fail-on-regression and no rule at all: any significant regression on a directed metric fails. */
function defaultRules(experiments: readonly Experiment[], metrics: readonly string[] | undefined) {
  const preview = compareExperiments(experiments, metrics ? { metrics } : {});
  const rules: Record<string, Threshold> = {};
  for (const m of preview.metrics) {
    // Only metrics both sides have: a default rule must not fail on a metric nobody asked for.
    if (m.direction !== 'neutral' && m.values.every((v) => v.value !== null))
      rules[m.name] = { max_regression: 0, require_significant: true };
  }
  return rules;
}

interface RenderInput {
  readonly comparison: Comparison;
  /** In the comparison's order: the HTML page draws its per-task and cost–score charts from them. */
  readonly experiments: readonly Experiment[];
}

function render(
  { comparison, experiments }: RenderInput,
  format: Format,
  io: CliIO,
  toFile: boolean,
): string {
  switch (format) {
    case 'console':
      return renderComparisonConsole(comparison, { paint: paint(!toFile && useColor(io)) });
    case 'markdown':
      return renderComparisonMarkdown(comparison);
    case 'json':
      return `${JSON.stringify(comparison, null, 2)}\n`;
    case 'html':
      return renderComparisonHtml(comparison, { charts: comparisonChartSections(comparison, experiments) });
    default: {
      const unreachable: never = format;
      throw new HarnessEvalError('usage', `unknown format ${String(unreachable)}`);
    }
  }
}

export async function compareAction(
  references: readonly string[],
  flags: CompareFlags,
  io: CliIO,
): Promise<void> {
  const format = formatFor(flags);
  // Trial records (a few hundred bytes a trial) unless a metric may read more of a record.
  const experiments = await loadExperimentRefs(references, {
    cwd: io.cwd,
    store: flags.store,
    env: io.env,
    records: comparisonRecords(flags.metric),
  });
  const candidate = experiments[1];
  if (candidate === undefined)
    throw new HarnessEvalError('usage', 'compare needs a baseline and at least one candidate');
  let thresholds: Record<string, Threshold> = { ...(await suiteThresholds(candidate, flags, io)) };
  for (const [metric, rule] of Object.entries(flags.threshold ?? {}))
    thresholds[metric] = { ...thresholds[metric], ...rule };
  if (flags.failOnRegression && Object.keys(thresholds).length === 0)
    thresholds = defaultRules(experiments, flags.metric);
  if (flags.margin !== undefined && !flags.sequential)
    throw new HarnessEvalError('usage', '--margin needs --sequential');
  const { sameVersionRuns } = await import('../version-runs.ts');
  const comparison = compareExperiments(experiments, {
    ...(flags.metric ? { metrics: flags.metric } : {}),
    ...(flags.alpha === undefined ? {} : { alpha: flags.alpha }),
    ...(flags.adjust === undefined ? {} : { adjust: flags.adjust }),
    ...(flags.excludeFlaky ? { excludeFlaky: true } : {}),
    ...(flags.weights === undefined ? {} : { weighting: flags.weights }),
    ...(flags.sequential ? { sequential: { margin: flags.margin ?? 0.05 } } : {}),
    versionRuns: await sameVersionRuns(experiments, { cwd: io.cwd, store: flags.store, env: io.env }),
    thresholds,
  });
  const text = render({ comparison, experiments }, format, io, flags.output !== undefined);
  if (flags.output === undefined) io.stdout.write(text);
  else {
    const target = resolve(io.cwd, flags.output);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    writeLine(io.stdout, `wrote ${format} comparison to ${flags.output}`);
  }
  if (flags.failOnRegression && comparison.violations.length > 0) {
    for (const v of comparison.violations) {
      const actual = v.actual === null ? 'n/a' : String(v.actual);
      writeLine(
        io.stderr,
        escapeControl(
          `regression: ${v.metric} ${v.condition} threshold=${v.threshold} actual=${actual} (${v.experiment_id}): ${v.message}`,
        ),
      );
    }
    throw new CliExit(EXIT.failure);
  }
}
