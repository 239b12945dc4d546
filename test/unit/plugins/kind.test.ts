import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { resolveEvaluator } from '../../../src/evaluators/registry.ts';
import { definePluginKind, PluginRegistry } from '../../../src/plugins/kind.ts';

interface Greeter {
  readonly specificationVersion: 'v1';
  greet(): string;
}

interface GreeterDefinition {
  readonly name: string;
  readonly description: string;
  readonly options: z.ZodType;
  readonly specificationVersion?: string;
  create(): Greeter;
}

function makeRegistry(loads: string[]) {
  const hello: GreeterDefinition = {
    name: 'hello',
    description: 'says hello',
    options: z.strictObject({ loud: z.boolean().default(false) }),
    create: () => ({ specificationVersion: 'v1', greet: () => 'hello' }),
  };
  return new PluginRegistry(
    definePluginKind({
      kind: 'reporter',
      builtins: {
        hello: {
          options: hello.options,
          description: hello.description,
          load: async () => {
            loads.push('hello');
            return hello;
          },
        },
      },
      versions: ['v1'],
      resolve: (instance: unknown) => instance as Greeter,
    }),
  );
}

function plugin(name: string, extra: Partial<GreeterDefinition> = {}): GreeterDefinition {
  return {
    name,
    description: name,
    options: z.strictObject({}),
    create: () => ({ specificationVersion: 'v1', greet: () => name }),
    ...extra,
  };
}

function thrown(run: () => unknown): HarnessEvalError {
  try {
    run();
  } catch (error) {
    if (HarnessEvalError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessEvalError');
}

describe('a plugin kind (one registry rule for every kind)', () => {
  it('checks names and options without loading the implementation', async () => {
    const loads: string[] = [];
    const registry = makeRegistry(loads);
    expect(registry.safeCheck('hello', { loud: true })).toEqual({ ok: true, value: { loud: true } });
    const bad = registry.safeCheck('hello', { loud: 'yes' });
    expect(!bad.ok && bad.error.message).toMatch(/^reporter "hello": options\.loud: /);
    const unknown = registry.safeCheck('helo', {});
    expect(!unknown.ok && unknown.error.message).toBe('unknown reporter "helo" (did you mean "hello"?)');
    expect(!unknown.ok && unknown.error.code).toBe('invalid_config');
    expect(loads).toEqual([]);
    expect((await registry.load('hello')).name).toBe('hello');
    expect(loads).toEqual(['hello']);
    await expect(registry.load('nope')).rejects.toThrow('unknown reporter "nope"');
  });

  it('refuses a built-in name and another definition under a taken name; the same one again is a no-op', () => {
    const registry = makeRegistry([]);
    const builtin = thrown(() => registry.register(plugin('hello')));
    expect(builtin.code).toBe('invalid_config');
    expect(builtin.message).toBe(
      'cannot register a reporter "hello": a built-in reporter has that name and cannot be replaced',
    );
    const first = plugin('wave');
    registry.register(first);
    expect(() => registry.register(first)).not.toThrow();
    const taken = thrown(() => registry.register(plugin('wave')));
    expect(taken.code).toBe('invalid_config');
    expect(taken.message).toBe('a reporter named "wave" is already registered (unregister it first)');
    expect(registry.names()).toEqual(['hello', 'wave']);
  });

  it('an unregister function removes its own definition only', () => {
    const registry = makeRegistry([]);
    const first = plugin('wave');
    const removeFirst = registry.register(first);
    removeFirst();
    expect(registry.has('wave')).toBe(false);
    const second = plugin('wave');
    registry.register(second);
    removeFirst(); // stale: the name now belongs to another definition
    expect(registry.plugin('wave')).toBe(second);
    expect(registry.unregister(first)).toBe(false);
    expect(registry.unregister(second)).toBe(true);
    expect(registry.has('wave')).toBe(false);
  });

  it('refuses a definition declaring a specificationVersion it does not run, naming all four facts', () => {
    const registry = makeRegistry([]);
    const v2 = thrown(() => registry.register(plugin('future', { specificationVersion: 'v2' })));
    expect(v2.code).toBe('invalid_config');
    expect(v2.message).toBe(
      'reporter "future" has specificationVersion "v2"; this HarnessEval supports "v1" (update HarnessEval or the plugin)',
    );
    expect(v2.data).toMatchObject({ kind: 'reporter', name: 'future', found: 'v2', supported: ['v1'] });
    expect(registry.has('future')).toBe(false);
    expect(() => registry.register(plugin('current', { specificationVersion: 'v1' }))).not.toThrow();
  });
});

describe('the evaluator seam (resolveEvaluator)', () => {
  const evaluate = async () => {
    throw new Error('not called');
  };

  it('passes a v1 instance through unchanged', () => {
    const v1 = { specificationVersion: 'v1', name: 'x', evaluate };
    expect(resolveEvaluator(v1, 'x')).toBe(v1);
  });

  it.each([
    ['v2', '"v2"'],
    ['v0', '"v0"'],
  ])(
    'refuses an instance of version %s, naming kind, name, version and the supported ones',
    (version, shown) => {
      const error = thrown(() =>
        resolveEvaluator({ specificationVersion: version, name: 'x', evaluate }, 'polite'),
      );
      expect(error.code).toBe('invalid_config');
      expect(error.message).toBe(
        `evaluator "polite" has specificationVersion ${shown}; this HarnessEval supports "v1" (update HarnessEval or the plugin)`,
      );
    },
  );

  it('refuses an instance without a version, and a v1 without evaluate()', () => {
    expect(thrown(() => resolveEvaluator({ name: 'x', evaluate }, 'polite')).message).toMatch(
      /^evaluator "polite" has no specificationVersion; this HarnessEval supports "v1"/,
    );
    expect(thrown(() => resolveEvaluator({ specificationVersion: 'v1' }, 'polite')).message).toBe(
      'evaluator "polite" says specificationVersion "v1" but does not implement evaluate',
    );
  });
});
