import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionAdapter, genericAdapter } from '../../../src/adapters/function.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { environment, trialContext } from './trial-context.ts';

async function agentFor(module: string, options: Record<string, unknown> = {}): Promise<AgentV1> {
  return functionAdapter.create(functionAdapter.options.parse({ module, options }), environment('function'));
}

async function createError(module: string): Promise<HarnessEvalError> {
  const error: unknown = await agentFor(module).catch((e: unknown) => e);
  if (!(error instanceof HarnessEvalError))
    throw new Error(`expected a HarnessEvalError, got ${String(error)}`);
  return error;
}

describe('function adapter: loading', () => {
  it('loads a TypeScript export with `#` and calls it with (input, context + options)', async () => {
    const agent = await agentFor('./echo-agent.ts#echo', { prefix: '> ' });
    expect(agent.specificationVersion).toBe('v1');
    const result = await agent.run('Ada', trialContext());
    expect(result.output).toBe('> Ada');
    expect(result.error).toBeUndefined();
    expect(result.latency).toBeGreaterThanOrEqual(0);
  });

  it('accepts `path:export`, the default export, an object with run, and plain .mjs', async () => {
    const harness = await (await agentFor('./echo-agent.ts:objectAgent')).run(
      'Bob',
      trialContext({ input: 'Bob' }),
    );
    expect(harness.output).toBe('hello Bob');
    expect(harness.trace?.prompts).toEqual([expect.objectContaining({ kind: 'planned', text: 'greet' })]);
    const byDefault = await (await agentFor('./echo-agent.ts')).run({ a: 1 }, trialContext());
    expect(byDefault.output).toEqual({ echoed: { a: 1 } });
    expect((await (await agentFor('./plain-agent.mjs#shout')).run('hi', trialContext())).output).toBe('HI');
    const generic = await genericAdapter.create(
      genericAdapter.options.parse({ module: './echo-agent.ts#echo' }),
      environment('generic'),
    );
    expect((await generic.run('x', trialContext())).output).toBe('x');
  });

  it('lists the exports when the named one is missing or not a function', async () => {
    const missing = await createError('./echo-agent.ts#nope');
    expect(missing.code).toBe('invalid_config');
    expect(missing.message).toBe(
      'module ./echo-agent.ts has no function export nope; exports are: default, echo, notAFunction, objectAgent',
    );
    expect((await createError('./echo-agent.ts#notAFunction')).message).toContain(
      'no function export notAFunction',
    );
  });

  it('reports a missing file, a syntax error and a malformed reference as configuration errors', async () => {
    const missing = await createError('./does-not-exist.ts#run');
    expect(missing.code).toBe('invalid_config');
    expect(missing.message).toMatch(/cannot load module .*does-not-exist\.ts/);
    const dir = mkdtempSync(join(tmpdir(), 'he-fn-'));
    writeFileSync(join(dir, 'broken.ts'), 'export function broken( {\n');
    expect((await createError(join(dir, 'broken.ts'))).message).toMatch(/cannot load module .*broken\.ts/);
    expect((await createError('./echo-agent.ts#not-an-identifier')).message).toMatch(/is not of the form/);
  });
});

describe('function adapter: results', () => {
  it('keeps a returned AgentOutput, filling latency when missing', async () => {
    const full = await (await agentFor('./output-agent.ts#fullOutput')).run('q', trialContext());
    expect(full.output).toEqual({ answer: 'q' });
    expect(full.tool_calls).toEqual([
      { tool_name: 'hello_world', args: { name: 'Ada' }, result: 'Hello, Ada!', status: 'success' },
    ]);
    expect(full.usage).toEqual({ tokens_in: 12, tokens_out: 3, cached_tokens: 0, cost_usd: 0.001 });
    expect(full.metadata).toEqual({ model: 'echo-1' });
    expect(full.latency).toBeGreaterThanOrEqual(0);
    expect((await (await agentFor('./output-agent.ts#withLatency')).run('q', trialContext())).latency).toBe(
      1.5,
    );
  });

  it('turns other JSON values into output', async () => {
    const number = await (await agentFor('./output-agent.ts#numberOutput')).run('q', trialContext());
    expect(number.output).toBe('42');
    expect(number.structured).toBe(42);
    const nothing = await (await agentFor('./output-agent.ts#nothing')).run('q', trialContext());
    expect(nothing.output).toBeNull();
    expect(nothing.error).toBeUndefined();
  });

  it.each([
    ['invalidOutput', /the returned AgentOutput is invalid: usage\.tokens_in/],
    ['symbolOutput', /the returned value is a symbol, not JSON data/],
    ['functionOutput', /the value at "callback" is a function/],
    ['circularOutput', /the returned value holds a cycle, not JSON data/],
    ['bigintOutput', /not JSON data: .*BigInt/i],
    ['hugeOutput', /the output is \d+ bytes, more than the limit of 10485760/],
  ])('returns invalid_output, never a crash, for %s', async (name, message) => {
    const result = await (await agentFor(`./output-agent.ts#${name}`)).run('q', trialContext());
    expect(result.error_kind).toBe('invalid_output');
    expect(result.error).toMatch(message);
    expect(result.output).toBeNull();
  });
});

describe('function adapter: failures', () => {
  it.each([
    ['fails', 'agent', 'the model refused'],
    ['rateLimited', 'transient', 'rate limited'],
    ['markedTransient', 'transient', 'flaky upstream'],
    ['badRequest', 'agent', 'bad request'],
  ])('a throw from %s becomes error_kind %s', async (name, kind, message) => {
    const result = await (await agentFor(`./throwing-agent.ts#${name}`)).run('q', trialContext());
    expect(result.error_kind).toBe(kind);
    expect(result.error).toBe(message);
  });

  it('returns timeout when the signal fires, whether or not the harness honors it', async () => {
    for (const name of ['honorsSignal', 'ignoresSignal']) {
      const agent = await agentFor(`./slow-agent.ts#${name}`);
      const trial = { signal: AbortSignal.timeout(50) };
      const result = await agent.run('q', trialContext({ signal: trial.signal }));
      expect(result.error_kind).toBe('timeout');
      expect(result.error).toMatch(/did not finish in time/);
    }
  });

  it('returns aborted for an interrupted run, and does not call the harness when already aborted', async () => {
    const controller = new AbortController();
    const agent = await agentFor('./slow-agent.ts#honorsSignal');
    const pending = agent.run('q', trialContext({ signal: controller.signal }));
    controller.abort(new Error('SIGINT'));
    expect(await pending).toMatchObject({ error_kind: 'aborted', error: 'the trial was aborted: SIGINT' });
    expect((await agent.run('q', trialContext({ signal: controller.signal }))).error_kind).toBe('aborted');
  });
});

describe('function adapter: trackers', () => {
  it('gives a plain function the trackers and puts what it reports in the trace', async () => {
    const agent = await agentFor('./tracked-agent.ts#tracked');
    const out = await agent.run('build it', trialContext());
    expect(out.output).toBe('built');
    expect(out.trace?.agent_calls).toEqual([
      expect.objectContaining({ role: 'developer', tokens_in: 120, tokens_out: 30 }),
    ]);
    expect(out.trace?.human).toEqual([expect.objectContaining({ action: 'approve', kind: 'planned' })]);
    expect(out.trace?.circuit_breakers).toEqual([expect.objectContaining({ type: 'CB1:test-failure' })]);
    expect(out.tool_calls).toEqual([expect.objectContaining({ tool_name: 'npm_test' })]);
  });

  it('calls the module’s close() when the run ends', async () => {
    const agent = await agentFor('./tracked-agent.ts#tracked');
    const { closedCount } = await import('../../fixtures/adapters/tracked-agent.ts');
    const before = closedCount();
    await agent.close?.();
    expect(closedCount()).toBe(before + 1);
  });
});
