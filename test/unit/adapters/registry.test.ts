import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  adapterNames,
  builtinAdapters,
  createAgent,
  registerAdapter,
  safeParseAdapterOptions,
} from '../../../src/adapters/registry.ts';
import type { AdapterDefinition } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { fixturesDir, trialContext } from './trial-context.ts';

function harness(adapter: string, options: Record<string, unknown>) {
  return HarnessConfigSchema.parse({ adapter, options, name: 'h' });
}

async function createError(adapter: string, options: Record<string, unknown>): Promise<HarnessEvalError> {
  const error: unknown = await createAgent(harness(adapter, options), {
    baseDir: fixturesDir,
    env: {},
  }).catch((e: unknown) => e);
  if (!HarnessEvalError.is(error)) throw new Error(`expected a HarnessEvalError, got ${String(error)}`);
  return error;
}

const reverse: AdapterDefinition<z.ZodObject<{ suffix: z.ZodDefault<z.ZodString> }>> = {
  name: 'reverse',
  description: 'test plugin',
  options: z.object({ suffix: z.string().default('') }).strict(),
  create: async (options, environment) => ({
    specificationVersion: 'v1',
    name: environment.harness.name,
    run: async (input) =>
      agentOutput({ output: `${String(input).split('').reverse().join('')}${options.suffix}` }),
  }),
};

/** Every registration a test makes is undone with the function it returned (the one way to unregister). */
const registered: (() => void)[] = [];
function register<S extends z.ZodType>(definition: AdapterDefinition<S>): void {
  registered.push(registerAdapter(definition));
}

afterEach(() => {
  for (const unregister of registered.splice(0)) unregister();
});

describe('adapter registry', () => {
  it('lists the built-ins, each loading a definition of the same name and schema', async () => {
    expect(Object.keys(builtinAdapters)).toEqual([
      'function',
      'generic',
      'http',
      'cli',
      'mcp',
      'oracle',
      'claude-code',
      'codex',
      'acp',
    ]);
    for (const [name, entry] of Object.entries(builtinAdapters)) {
      const definition = await entry.load();
      expect(definition.name).toBe(name);
      expect(definition.options).toBe(entry.options);
    }
  });

  it('creates a working agent from a harness config, resolving paths against baseDir', async () => {
    const agent = await createAgent(harness('function', { module: './echo-agent.ts#echo' }), {
      baseDir: fixturesDir,
    });
    expect((await agent.run('hi', trialContext())).output).toBe('hi');
    expect(agent.name).toBe('h');
  });

  it('suggests the closest name for an unknown adapter', async () => {
    const error = await createError('htp', {});
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe('unknown adapter "htp" (did you mean "http"?)');
    expect(error.diagnostics[0]).toMatchObject({
      path: 'adapter',
      expected: 'function | generic | http | cli | mcp | oracle | claude-code | codex | acp',
    });
    expect((await createError('kubernetes', {})).message).not.toContain('did you mean');
  });

  it('reports option errors with their paths, before loading anything', async () => {
    const error = await createError('http', { url: 'not a url', method: 'DELETE', extra: 1 });
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/^adapter "http": options\./);
    const paths = error.diagnostics.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['options.url', 'options.method']));
    expect(error.message).toMatch(/extra/);
    const mcp = safeParseAdapterOptions({
      adapter: 'mcp',
      options: { command: 'x', url: 'http://127.0.0.1/' },
    });
    expect(mcp.ok).toBe(false);
    if (!mcp.ok) expect(mcp.error.message).toContain('give exactly one of `command` (stdio) or `url`');
  });

  it('accepts valid options and fills defaults without loading', () => {
    const result = safeParseAdapterOptions({ adapter: 'cli', options: { command: 'node' } });
    expect(result).toMatchObject({
      ok: true,
      value: { command: 'node', args: [], input: 'stdin', output: 'text' },
    });
  });

  it('registers a plugin adapter, validates its options and runs it', async () => {
    register(reverse);
    expect(adapterNames()).toContain('reverse');
    const agent = await createAgent(harness('reverse', { suffix: '!' }), { baseDir: fixturesDir });
    expect((await agent.run('abc', trialContext())).output).toBe('cba!');
    expect((await createError('reverse', { suffix: 3 })).diagnostics[0]?.path).toBe('options.suffix');
    expect((await createError('revers', {})).message).toContain('did you mean "reverse"');
  });

  it('refuses an agent whose specificationVersion this HarnessEval does not run, naming the adapter', async () => {
    register({
      ...reverse,
      name: 'broken',
      create: async () =>
        ({ specificationVersion: 'v2', name: 'x', run: async () => agentOutput({ output: '' }) }) as never,
    });
    expect((await createError('broken', {})).message).toBe(
      'adapter "broken" has specificationVersion "v2"; this HarnessEval supports "v1" (update HarnessEval or the plugin)',
    );
  });

  it('refuses a plugin that shadows a built-in, and wraps a plugin that throws at create', async () => {
    expect(() => registerAdapter({ ...reverse, name: 'http' })).toThrow(
      'cannot register an adapter "http": a built-in adapter has that name and cannot be replaced',
    );
    register({
      ...reverse,
      name: 'broken',
      create: async () => {
        throw new TypeError('no socket');
      },
    });
    const error = await createError('broken', {});
    expect(error.message).toBe('adapter "broken" could not be created: no socket');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('unregisters as every kind does: by the function register returned, which removes its own definition only', () => {
    const unregisterFirst = registerAdapter(reverse);
    unregisterFirst();
    expect(adapterNames()).not.toContain('reverse');
    const second: AdapterDefinition = { ...reverse };
    const unregisterSecond = registerAdapter(second);
    // The first registration's function no longer owns the name: the second plugin stays.
    unregisterFirst();
    expect(adapterNames()).toContain('reverse');
    unregisterSecond();
    expect(adapterNames()).not.toContain('reverse');
  });

  it('has no unregister by name: nothing can remove a plugin it did not register', async () => {
    const adapters = await import('../../../src/adapters/index.ts');
    const api = await import('../../../src/index.ts');
    expect(Object.keys(adapters).filter((name) => /^unregister/i.test(name))).toEqual([]);
    expect(Object.keys(api).filter((name) => /^unregister/i.test(name))).toEqual([]);
  });
});
