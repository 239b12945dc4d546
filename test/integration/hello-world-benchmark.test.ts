import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { query } from 'jsonpath-rfc9535';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { adapterOptionSchemas } from '../../src/adapters/catalog.ts';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { evaluatorOptionSchemas, isBuiltinEvaluator } from '../../src/evaluators/catalog.ts';
import { createMcpAgent, environment, helloWorldDir, trial } from '../unit/adapters/mcp-helpers.ts';

const EvaluatorRef = z.object({ name: z.string(), options: z.record(z.string(), z.unknown()).default({}) });
const Benchmark = z.object({
  version: z.literal('1.0'),
  name: z.string(),
  agent: z.looseObject({ adapter: z.string() }),
  evaluators: z.array(EvaluatorRef).default([]),
  metrics: z.array(z.string()),
  tests: z.array(
    z.object({
      id: z.string(),
      input: z.union([z.string(), z.record(z.string(), z.unknown())]),
      expected: z.unknown().optional(),
      evaluators: z.array(EvaluatorRef).default([]),
      tags: z.array(z.string()),
    }),
  ),
});
const Case = z.object({
  case_id: z.string(),
  prompt: z.string(),
  expected_output_type: z.enum(['exact', 'regex', 'jsonpath']),
  expected_output: z.string().nullable(),
  difficulty: z.string(),
});

function readBenchmark(file: string) {
  return Benchmark.parse(parse(readFileSync(path.join(helloWorldDir, file), 'utf8')));
}

function agentOptions(agent: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(agent).filter(([key]) => key !== 'adapter'));
}

function expectKnownEvaluators(refs: readonly z.infer<typeof EvaluatorRef>[]): void {
  for (const ref of refs) {
    expect(isBuiltinEvaluator(ref.name), ref.name).toBe(true);
    if (isBuiltinEvaluator(ref.name))
      expect(evaluatorOptionSchemas[ref.name].safeParse(ref.options).success).toBe(true);
  }
}

describe('examples/hello-world/benchmark.yaml', () => {
  const benchmark = readBenchmark('benchmark.yaml');
  const cases = readFileSync(path.join(helloWorldDir, 'datasets/hello-world-v0.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => Case.parse(JSON.parse(l)));

  it('runs the reference agent through the function adapter', async () => {
    expect(benchmark.agent.adapter).toBe('function');
    const options = adapterOptionSchemas.function.parse(agentOptions(benchmark.agent));
    const [file, exportName] = options.module.split('#');
    expect(existsSync(path.join(helloWorldDir, file ?? ''))).toBe(true);
    const agentModule: Record<string, unknown> = await import('../../examples/hello-world/agent.ts');
    expect(typeof agentModule[exportName ?? '']).toBe('function');
    expectKnownEvaluators(benchmark.evaluators);
  });

  it('mirrors the 25 dataset cases one for one', () => {
    expect(benchmark.tests.map((t) => t.id)).toEqual(cases.map((c) => c.case_id));
    for (const [i, c] of cases.entries()) {
      const test = benchmark.tests[i];
      expect(test?.input, c.case_id).toBe(c.prompt);
      expect(test?.tags[0], c.case_id).toBe(c.difficulty);
      expectKnownEvaluators(test?.evaluators ?? []);
      const own = test?.evaluators[0];
      if (c.expected_output === null) expect(test?.evaluators, c.case_id).toEqual([]);
      else if (c.expected_output_type === 'exact') {
        expect([test?.expected, own?.name], c.case_id).toEqual([c.expected_output, 'exact_match']);
      } else if (c.expected_output_type === 'regex') {
        expect(own, c.case_id).toEqual({ name: 'regex', options: { pattern: c.expected_output } });
      } else {
        expect(own, c.case_id).toEqual({
          name: 'jsonpath',
          options: { path: c.expected_output, target: 'structured' },
        });
      }
    }
  });

  it('has a harness config for running the dataset directly', () => {
    const harness = HarnessConfigSchema.parse(
      parse(readFileSync(path.join(helloWorldDir, 'harness.yaml'), 'utf8')),
    );
    expect(harness.adapter).toBe('function');
    expect(adapterOptionSchemas.function.parse(harness.options).module).toBe('./agent.ts#helloAgent');
  });
});

describe('examples/hello-world/mcp-direct.yaml through the mcp adapter', () => {
  const benchmark = readBenchmark('mcp-direct.yaml');
  let agent: AgentV1;
  beforeAll(async () => {
    expect(benchmark.agent.adapter).toBe('mcp');
    agent = await createMcpAgent(
      adapterOptionSchemas.mcp.parse(agentOptions(benchmark.agent)),
      environment({ baseDir: helloWorldDir }),
    );
  });
  afterAll(async () => {
    await agent.close?.();
  });

  it('passes every test it declares', async () => {
    expectKnownEvaluators(benchmark.evaluators);
    for (const test of benchmark.tests) {
      expectKnownEvaluators(test.evaluators);
      const out = await agent.run(test.input, trial(test.input));
      expect(out.error, test.id).toBeUndefined();
      expect(
        out.tool_calls.map((c) => c.tool_name),
        test.id,
      ).toEqual(['hello_world']);
      if (test.expected !== undefined) expect(out.output, test.id).toBe(test.expected);
      for (const ref of test.evaluators) {
        const options = evaluatorOptionSchemas.jsonpath.parse(ref.options);
        const nodes = query(z.json().parse(out.structured ?? null), options.path);
        expect(nodes.length, test.id).toBeGreaterThan(0);
        if (options.value !== undefined) expect(nodes[0], test.id).toEqual(options.value);
      }
    }
  });
});
