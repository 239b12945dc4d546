import type { ScoredExperiment } from '../../../core/overall-score.ts';
import { overallScoreText } from '../../record-view.ts';
import { escapeHtml } from '../escape.ts';
import { formatSeconds } from '../format.ts';

function row(term: string, html: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${html}</dd>`;
}

export function badge(label: string): string {
  const text = escapeHtml(label);
  return `<span class="badge ${text}">${text}</span>`;
}

/** The trial counts and overall score the summary shows: from the records, or folded by a streamed report. */
export interface SummaryFacts {
  readonly trials: number;
  /** Each outcome with its count, in the order the outcomes first appear. */
  readonly outcomes: readonly (readonly [string, number])[];
  readonly overall: string;
}

function factsOf(experiment: ScoredExperiment): SummaryFacts {
  const counts = new Map<string, number>();
  for (const r of experiment.records) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  return { trials: experiment.records.length, outcomes: [...counts], overall: overallScoreText(experiment) };
}

function outcomeCounts(facts: SummaryFacts): string {
  if (facts.outcomes.length === 0) return 'no trials';
  return facts.outcomes.map(([outcome, n]) => `${n} ${outcome}`).join(', ');
}

function wallTime(experiment: ScoredExperiment): string {
  if (!experiment.finished_at) return '';
  const ms = Date.parse(experiment.finished_at) - Date.parse(experiment.created_at);
  return Number.isFinite(ms) && ms >= 0 ? ` (${formatSeconds(ms / 1000)})` : '';
}

/** Suite, harness, status and outcome, dates, settings and environment, threshold violations. */
export function summarySection(experiment: ScoredExperiment, facts = factsOf(experiment)): string {
  const { suite, harness, environment: env, settings } = experiment;
  const suiteName = suite.name ? `${suite.name} (${suite.id})` : suite.id;
  const model = harness.model ? ` · model ${harness.model}` : '';
  const rows = [
    row('Experiment', escapeHtml(experiment.name ? `${experiment.name} (${experiment.id})` : experiment.id)),
    row('Suite', escapeHtml(suiteName + (suite.file ? ` · ${suite.file}` : ''))),
    row('Harness', escapeHtml(`${harness.name} ${harness.version} · adapter ${harness.adapter}${model}`)),
    row('Status', badge(experiment.status)),
    row('Outcome', experiment.outcome ? badge(experiment.outcome) : 'n/a'),
    row('Overall score', escapeHtml(facts.overall)),
    row(
      'Trials',
      escapeHtml(
        `${facts.trials} (${outcomeCounts(facts)}) · ${suite.tasks.length} tasks × ${settings.epochs} epochs`,
      ),
    ),
    row('Created', escapeHtml(experiment.created_at)),
    row('Finished', escapeHtml((experiment.finished_at ?? 'not finished') + wallTime(experiment))),
    row(
      'Environment',
      escapeHtml(
        `harnesseval ${env.harnesseval_version} · node ${env.node_version} · ${env.platform}` +
          (env.git_commit ? ` · commit ${env.git_commit}` : ''),
      ),
    ),
  ];
  const violations =
    experiment.violations.length === 0
      ? ''
      : `<h3>Threshold violations</h3><ul class="violations">${experiment.violations
          .map((v) => `<li>${escapeHtml(v.message)}</li>`)
          .join('')}</ul>`;
  return `<dl class="summary">${rows.join('')}</dl>${violations}`;
}
