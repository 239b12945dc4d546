import { type Experiment, type ExperimentDraft, ExperimentSchema } from '../../src/core/experiment.ts';
import type { RunRecordDraft } from '../../src/core/run-record.ts';

export const XSS_SCRIPT = '<script>window.__pwned=1</script>';
export const XSS_IMG = '<img src=x onerror="window.__pwned=1">';

interface TrialDraft {
  task: string;
  epoch?: number;
  outcome: 'pass' | 'fail' | 'error' | 'pending';
  score?: number;
  cost?: number | null;
  seconds?: number;
  output?: string;
  explanation?: string;
}

export function trial(t: TrialDraft): RunRecordDraft {
  const passed = t.outcome === 'pass';
  return {
    run_id: `run-${t.task}-${t.epoch ?? 0}`,
    task_id: t.task,
    epoch: t.epoch ?? 0,
    harness_config: { name: 'demo-harness', version: '1.2.0' },
    timestamp: '2026-11-30T10:00:00Z',
    duration_seconds: t.seconds ?? 2,
    cost_usd: t.cost === undefined ? 0.02 : t.cost,
    outcome: t.outcome,
    ...(t.outcome === 'error' ? { error: 'adapter timed out after 60 s' } : {}),
    output: {
      output: t.output ?? `answer for ${t.task}`,
      tool_calls: [
        { tool_name: 'read_file', args: { path: `src/${t.task}.ts` }, result: 'contents', duration: 0.1 },
      ],
      usage: { tokens_in: 100, tokens_out: 40, cost_usd: 0.02 },
    },
    trace: {
      agent_calls: [
        { role: 'planner', model: 'model-a', tokens_in: 60, tokens_out: 20, cost_usd: 0.01 },
        { role: 'coder', model: 'model-b', tokens_in: 40, tokens_out: 20, cost_usd: 0.01 },
      ],
      human: [{ action: 'review', kind: 'planned', minutes: 3, note: 'looked fine' }],
      circuit_breakers: passed ? [] : [{ type: 'CB2:review-rejection', trigger: 'reviewer said no' }],
      malformed_events: [],
    },
    evaluations: [
      {
        evaluator: 'contains',
        score: passed ? 1 : 0,
        passed,
        explanation: t.explanation ?? (passed ? 'found the answer' : `missing answer in ${t.task}`),
      },
    ],
    criteria: [
      {
        id: 'tests-pass',
        verification: 'rubric',
        status: passed ? 'passed' : 'failed',
        score: t.score ?? null,
        grades: [
          {
            dimension: 'correctness',
            level: passed ? 4 : 2,
            score: passed ? 1 : 0.33,
            rationale: 'graded by the judge',
            grader: 'judge',
            grader_kind: 'llm',
            graded_at: '2026-11-30T10:01:00Z',
          },
        ],
      },
    ],
    scores: t.score === undefined ? {} : { overall: t.score },
  };
}

/** A small experiment with passes, failures, an error and an agent output that tries to run script. */
export function demoExperiment(overrides: Partial<ExperimentDraft> = {}): Experiment {
  return ExperimentSchema.parse({
    id: 'exp-demo-1',
    suite: {
      id: 'demo-suite',
      name: 'Demo suite',
      tasks: [{ id: 'alpha' }, { id: 'beta' }, { id: 'gamma' }],
    },
    harness: { name: 'demo-harness', version: '1.2.0', adapter: 'function' },
    status: 'completed',
    created_at: '2026-11-30T10:00:00Z',
    finished_at: '2026-11-30T10:05:00Z',
    settings: { epochs: 2 },
    environment: { harnesseval_version: '0.1.0', node_version: 'v20.0.0', platform: 'linux' },
    outcome: 'fail',
    scores: { overall: 0.61 },
    metrics: [
      {
        name: 'success_rate',
        value: 0.5,
        formatted_value: '50.0%',
        direction: 'higher_is_better',
        n: 3,
        stderr: 0.2,
        ci95: [0.1, 0.9],
      },
      {
        name: 'cost',
        value: 0.12,
        formatted_value: '$0.12',
        direction: 'lower_is_better',
        n: 6,
        stderr: null,
        ci95: null,
      },
      {
        name: 'first_pass_approval_rate',
        value: null,
        formatted_value: 'n/a',
        direction: 'higher_is_better',
        n: 0,
        stderr: null,
        ci95: null,
      },
    ],
    records: [
      trial({ task: 'alpha', outcome: 'pass', score: 0.9, cost: 0.03, seconds: 1.5 }),
      trial({ task: 'alpha', epoch: 1, outcome: 'pass', score: 0.8, cost: 0.025, seconds: 1.2 }),
      trial({
        task: 'beta',
        outcome: 'fail',
        score: 0.3,
        cost: 0.01,
        seconds: 4,
        output: `${XSS_SCRIPT} and ${XSS_IMG}`,
      }),
      trial({
        task: 'beta',
        epoch: 1,
        outcome: 'fail',
        score: 0.2,
        cost: 0.012,
        seconds: 3.5,
        explanation: XSS_IMG,
      }),
      trial({ task: 'gamma', outcome: 'error', cost: null, seconds: 60 }),
      trial({ task: 'gamma', epoch: 1, outcome: 'pass', score: 0.7, cost: 0.04, seconds: 8 }),
    ],
    ...overrides,
  });
}
