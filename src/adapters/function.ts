import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { harnessAgent, isHarness } from '../instrument/harness.ts';
import { RunTracker, type TrackerViews } from '../instrument/tracker.ts';
import { importUserModule, parseModuleRef } from '../plugins/user-module.ts';
import {
  abortedOutput,
  failedOutput,
  normalizeAgentResult,
  secondsSince,
  thrownErrorKind,
} from './agent-result.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

/**
 * What an in-process function receives beside its input: the trial context, its options, and the
 * trackers (`ctx.agents`, `ctx.prompts`, `ctx.hitl`, `ctx.breakers`, `ctx.tools`, `ctx.track`).
 */
export type FunctionAgentContext = TrialContext &
  TrackerViews & { readonly options: Readonly<Record<string, unknown>>; readonly track: RunTracker };

/** An in-process harness: a function, or an object with a `run` method. */
export type FunctionAgent = (input: TaskInput, context: FunctionAgentContext) => unknown;

type FunctionOptions = AdapterOptions<'function'>;

/** Finds the callable export; a misnamed export is a configuration error listing what exists. */
function resolveAgent(exports: Record<string, unknown>, exportName: string, path: string): FunctionAgent {
  const candidate = exports[exportName];
  if (typeof candidate === 'function') {
    return (input, context) => Reflect.apply(candidate, undefined, [input, context]);
  }
  const names = Object.keys(exports);
  throw new HarnessEvalError(
    'invalid_config',
    `module ${path} has no function export ${exportName}; exports are: ${names.length > 0 ? names.join(', ') : '(none)'}`,
    { data: { path, exportName, exports: names } },
  );
}

async function createFunctionAgent(
  options: FunctionOptions,
  environment: AdapterEnvironment,
): Promise<AgentV1> {
  const ref = parseModuleRef(options.module);
  const exports = await importUserModule(ref.path, environment.baseDir);
  const close = moduleClose(exports);
  const candidate = exports[ref.exportName];
  // An object with `run(task, ctx)` is a seed-004 harness: it gets the task and trackers.
  const agentOptions = Object.freeze({ ...options.options });
  if (isHarness(candidate))
    return { ...harnessAgent(candidate, environment.harness.name, agentOptions), ...close };
  const agent = resolveAgent(exports, ref.exportName, ref.path);

  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'trackers',
    ...close,
    async run(input, ctx): Promise<AgentOutput> {
      const start = performance.now();
      const { signal } = ctx;
      if (signal.aborted) return abortedOutput(signal);
      // The call may ignore its signal; racing it keeps the trial on time. Its late result or
      // rejection is swallowed by the `then` handlers below, never left unhandled.
      let onAbort = (): void => {};
      const aborted = new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
      });
      const tracker = new RunTracker();
      const call = Promise.resolve()
        .then(() => agent(input, { ...ctx, ...tracker.views(), track: tracker, options: agentOptions }))
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
      try {
        const settled = await Promise.race([call, aborted]);
        const latency = secondsSince(start);
        if (settled === 'aborted' || signal.aborted) return abortedOutput(signal, { latency });
        if (settled.ok) return withTrackedEvents(normalizeAgentResult(settled.value, latency), tracker);
        return failedOutput(thrownErrorKind(settled.error), errorMessage(settled.error), { latency });
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** A module's exported `close()` releases what it holds (an MCP connection) when the run ends. */
function moduleClose(exports: Record<string, unknown>): { close?: () => Promise<void> } {
  const close = exports['close'];
  if (typeof close !== 'function') return {};
  return {
    close: async () => {
      await Reflect.apply(close, undefined, []);
    },
  };
}

/** Adds what the function reported through its trackers to its output. */
function withTrackedEvents(output: AgentOutput, tracker: RunTracker): AgentOutput {
  const trace = tracker.trace();
  const tools = tracker.toolCalls();
  const reported =
    trace.agent_calls.length +
      trace.prompts.length +
      trace.human.length +
      trace.circuit_breakers.length +
      tools.length >
      0 || trace.first_pass_approval !== undefined;
  if (!reported) return output;
  return { ...output, trace: output.trace ?? trace, tool_calls: [...output.tool_calls, ...tools] };
}

export const functionAdapter: AdapterDefinition<typeof adapterOptionSchemas.function> = {
  name: 'function',
  description: 'An in-process TypeScript or JavaScript function: `module: ./agent.ts#run`.',
  options: adapterOptionSchemas.function,
  create: createFunctionAgent,
};

/** The seed-000 name for the same adapter. */
export const genericAdapter: AdapterDefinition<typeof adapterOptionSchemas.generic> = {
  ...functionAdapter,
  name: 'generic',
  options: adapterOptionSchemas.generic,
};
