import type { EvaluationResult } from '../../../src/core/evaluation.ts';
import {
  type Experiment,
  type ExperimentDraft,
  ExperimentSchema,
  type MetricResult,
} from '../../../src/core/experiment.ts';
import { type RunRecord, type RunRecordDraft, RunRecordSchema } from '../../../src/core/run-record.ts';

/** Strings that break naive reporters: separators, quotes, markup, escapes, wide characters. */
export const NASTY = {
  comma: 'a, b, c',
  quotes: 'she said "hi" and \'bye\'',
  newline: 'line one\nline two\r\nline three',
  script: '<script>alert("x")</script> & <b>bold</b>',
  cdata: 'end ]]> of cdata',
  ansi: '\u001b[31mRED\u001b[0m \u001b[2J\u001b[H cursor home',
  emoji: 'done 🎉👍🏽 👨‍👩‍👧 日本語テキスト',
  formula: '=HYPERLINK("http://evil.example","click")',
  pipe: 'left | right || both',
  controls: 'nul\u0000 bell\u0007 bs\u0008 vt\u000b c1\u009b lone\ud800 bidi\u202e',
  big: `${'0123456789'.repeat(1024)}`,
} as const;

export function evaluation(overrides: Partial<EvaluationResult> = {}): EvaluationResult {
  return {
    evaluator: 'exact_match',
    score: 1,
    passed: true,
    explanation: 'output matched',
    details: {},
    negated: false,
    ...overrides,
  };
}

export function record(
  draft: Partial<RunRecordDraft> & Pick<RunRecordDraft, 'task_id' | 'outcome'>,
): RunRecord {
  return RunRecordSchema.parse({
    run_id: `run-${draft.task_id}-${draft.epoch ?? 0}`,
    experiment_id: 'exp-1',
    harness_config: { name: 'ref-agent', version: '1.2.0' },
    timestamp: '2026-11-30T12:00:00.000Z',
    duration_seconds: 1.5,
    output: { output: 'ok', latency: 1.25, usage: { cost_usd: 0.0012 } },
    ...draft,
  });
}

export function metric(overrides: Partial<MetricResult> & Pick<MetricResult, 'name'>): MetricResult {
  return {
    value: 0.8,
    formatted_value: '80.0%',
    direction: 'higher_is_better',
    n: 25,
    stderr: 0.0316,
    ci95: [0.676, 0.924],
    description: '',
    details: {},
    ...overrides,
  };
}

export function experiment(draft: Partial<ExperimentDraft> = {}): Experiment {
  const records = (draft.records ?? []).map((r) => RunRecordSchema.parse(r));
  return ExperimentSchema.parse({
    id: 'exp-1',
    suite: {
      id: 'hello-world',
      name: 'Hello world',
      tasks: [...new Set(records.map((r) => r.task_id))].map((id) => ({ id })),
    },
    harness: { name: 'ref-agent', version: '1.2.0', adapter: 'function' },
    status: 'completed',
    created_at: '2026-11-30T12:00:00.000Z',
    finished_at: '2026-11-30T12:01:00.000Z',
    settings: {},
    environment: { harnesseval_version: '0.1.0', node_version: 'v20.20.2', platform: 'linux' },
    ...draft,
    records,
  });
}

/** One trial of each outcome, the nasty strings spread over ids, explanations and errors. */
export function mixedExperiment(draft: Partial<ExperimentDraft> = {}): Experiment {
  return experiment({
    records: [
      record({ task_id: 'greet-alice', outcome: 'pass', evaluations: [evaluation()] }),
      record({
        task_id: 'greet, "bob"',
        outcome: 'fail',
        output: { output: NASTY.big, latency: 2 },
        evaluations: [
          evaluation({
            evaluator: 'contains',
            score: 0,
            passed: false,
            explanation: `${NASTY.newline} ${NASTY.quotes}`,
          }),
        ],
      }),
      record({
        task_id: 'tool-<script>',
        outcome: 'error',
        error: `${NASTY.ansi} ${NASTY.script} ${NASTY.cdata}`,
        output: { output: null, error: 'boom', error_kind: 'timeout' },
      }),
      record({
        task_id: 'needs-review',
        outcome: 'pending',
        criteria: [{ id: 'rubric-clarity', verification: 'rubric', status: 'pending', score: null }],
      }),
      record({
        task_id: '=formula',
        outcome: 'fail',
        error: NASTY.formula,
        evaluations: [
          evaluation({
            evaluator: 'regex',
            score: 0,
            passed: false,
            explanation: `${NASTY.emoji} ${NASTY.pipe}`,
          }),
          evaluation({ evaluator: 'tool_called', score: 1, passed: true }),
        ],
      }),
      record({
        task_id: 'controls',
        outcome: 'fail',
        evaluations: [
          evaluation({ evaluator: 'regex', score: 0.25, passed: false, explanation: NASTY.controls }),
        ],
      }),
    ],
    metrics: [
      metric({ name: 'success_rate', unit: 'ratio' }),
      metric({
        name: 'latency',
        value: 1.4,
        formatted_value: '1.40 s',
        unit: 's',
        ci95: [1.1, 1.7],
        stderr: 0.15,
      }),
      metric({
        name: 'cost',
        unit: 'usd',
        value: null,
        formatted_value: 'n/a',
        n: 0,
        stderr: null,
        ci95: null,
      }),
    ],
    violations: [
      {
        metric: 'success_rate',
        condition: 'minimum',
        threshold: 0.9,
        actual: 0.8,
        message: 'success_rate 80.0% is below the minimum 90.0%',
      },
    ],
    ...draft,
  });
}
