import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import { type AgentOutput, AgentOutputSchema, type ErrorKind, type Usage } from '../core/agent-output.ts';
import { type TaskInput, TaskSchema } from '../core/task.ts';
import { EVENTS_ENV, readEventsFile } from '../instrument/events.ts';

/**
 * The test functions of your framework (vitest, jest): `it(name, fn, timeoutMs)` and an `expect`
 * with `toBe`, `toEqual` and `toMatchObject`, so HarnessEval does not depend on one at run time.
 */
export interface ContractTestApi {
  readonly describe: (name: string, body: () => void) => void;
  readonly it: ((name: string, body: () => Promise<void>, timeoutMs?: number) => void) & {
    readonly skip?: (name: string, body: () => Promise<void>) => void;
  };
  readonly expect: (
    actual: unknown,
    message?: string,
  ) => {
    toBe(expected: unknown): void;
    toEqual(expected: unknown): void;
    toMatchObject(expected: Record<string, unknown>): void;
  };
}

/** An agent set up to behave one way, with the input that makes it do so. */
export interface ContractSubject {
  readonly agent: AgentV1;
  readonly input: TaskInput;
  /** The trial's workspace, when the agent needs one. */
  readonly workspace?: string;
  /** Extra trial environment (the contract adds `HARNESSEVAL_EVENTS`). */
  readonly env?: Readonly<Record<string, string>>;
}

/** A case that cannot apply to an adapter, with the reason (shown as the skipped test's name). */
export interface NotApplicable {
  readonly notApplicable: string;
}

/** Declares a contract case not applicable: `hang: notApplicable('answers synchronously')`. */
export function notApplicable(reason: string): NotApplicable {
  return { notApplicable: reason };
}

type Make<E = object> = (() => Promise<ContractSubject & E>) | NotApplicable;

/** How to make the adapter under test behave each way the contract checks. */
export interface AdapterContractFactory {
  /** Answers the input; the output is compared with `output` (`toEqual`). */
  readonly success: Make<{ readonly output: AgentOutput['output'] }>;
  /** Each way the harness fails (throws, HTTP 500, exits non-zero, crashes), with the error kind expected. */
  readonly errors: Readonly<Record<string, Make<{ readonly error_kind: ErrorKind }>>>;
  /** Never answers by itself: used for the timeout, the abort and the already-aborted cases. */
  readonly hang: Make;
  /**
   * Hangs like `hang`, having started processes; `leftovers()` lists those still running. After a
   * timeout the contract expects none (the adapter ended the whole process group).
   */
  readonly orphans: Make<{ readonly leftovers: () => readonly number[] | Promise<readonly number[]> }>;
  /** Reports usage; the output's `usage` must match `usage` (`toMatchObject`). */
  readonly usage: Make<{ readonly usage: Partial<Usage> }>;
  /** Reports its work: at least `agent_calls` agent calls and these tool calls (by name, in order). */
  readonly events: Make<{ readonly agent_calls?: number; readonly tool_calls?: readonly string[] }>;
}

export interface AdapterContractOptions {
  /** Per-case test timeout (default 30 s: subprocess adapters on a loaded machine are slow). */
  readonly timeoutMs?: number;
  /** When the timeout and the abort fire after the run starts (default 300 ms). */
  readonly stopAfterMs?: number;
  /** Told each case the factory declared not applicable, with its reason (e.g. `console.log`). */
  readonly note?: (message: string) => void;
}

/** How long leftovers may take to go after `run` returned (a killed process being reaped). */
const LEFTOVER_GRACE_MS = 1000;

function isNotApplicable(value: unknown): value is NotApplicable {
  return typeof value === 'object' && value !== null && 'notApplicable' in value;
}

/** What a harness reported in the events file, merged into its output as the runner does. */
async function withEvents(output: AgentOutput, file: string): Promise<AgentOutput> {
  const events = await readEventsFile(file);
  if (events === undefined) return output;
  const trace = output.trace;
  return {
    ...output,
    tool_calls: [...output.tool_calls, ...events.toolCalls],
    trace: {
      ...events.trace,
      ...trace,
      agent_calls: [...(trace?.agent_calls ?? []), ...events.trace.agent_calls],
    },
  };
}

/** Runs one trial of a subject with a signal; closes the agent (twice: close must be idempotent). */
async function runTrial(subject: ContractSubject, signal: AbortSignal): Promise<AgentOutput> {
  const dir = await mkdtemp(join(tmpdir(), 'harnesseval-contract-'));
  const events = join(dir, 'events.jsonl');
  const ctx: TrialContext = {
    task: TaskSchema.parse({ id: 'contract', input: subject.input }),
    epoch: 0,
    trialId: 'contract#0',
    signal,
    env: { ...subject.env, [EVENTS_ENV]: events },
    ...(subject.workspace === undefined ? {} : { workspace: subject.workspace }),
  };
  try {
    const output = await subject.agent.run(subject.input, ctx);
    return subject.agent.reports === 'files' || subject.agent.reports === undefined
      ? await withEvents(output, events)
      : output;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function closeTwice(agent: AgentV1): Promise<void> {
  await agent.close?.();
  await agent.close?.();
}

async function waitForNone(leftovers: () => readonly number[] | Promise<readonly number[]>) {
  const until = performance.now() + LEFTOVER_GRACE_MS;
  let left = await leftovers();
  while (left.length > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await leftovers();
  }
  return left;
}

/**
 * The behaviour every adapter must have, as tests in your framework: success (a valid output),
 * error containment (a failing harness is an errored output of the right kind, never a throw),
 * timeout and abort (the trial's signal stops it: `timeout` or `aborted`), no orphan processes,
 * usage and events reported. A case the factory declares `notApplicable` is a skipped test named
 * with its reason. HarnessEval's own adapters pass it (`test/contract/`).
 *
 * @example
 * import { describe, expect, it } from 'vitest';
 * import { adapterContract, notApplicable } from 'harnesseval/testing';
 * adapterContract('echo', { describe, it, expect }, {
 *   success: async () => ({ agent: await makeEcho(), input: 'hi', output: 'echo: hi' }),
 *   errors: { 'a refused input': async () => ({ agent: await makeEcho(), input: 'boom', error_kind: 'agent' }) },
 *   hang: notApplicable('answers at once'),
 *   orphans: notApplicable('starts no process'),
 *   usage: notApplicable('reports no tokens'),
 *   events: notApplicable('makes no calls'),
 * });
 */
export function adapterContract(
  name: string,
  test: ContractTestApi,
  factory: AdapterContractFactory,
  options: AdapterContractOptions = {},
): void {
  const { describe, it, expect } = test;
  const timeout = options.timeoutMs ?? 30_000;
  const stopAfter = options.stopAfterMs ?? 300;

  function contractCase<E>(
    title: string,
    make: Make<E>,
    body: (subject: ContractSubject & E) => Promise<void>,
  ) {
    if (isNotApplicable(make)) {
      const label = `${title}: not applicable (${make.notApplicable})`;
      options.note?.(`adapter contract: ${name}: ${label}`);
      if (it.skip !== undefined) it.skip(label, async () => {});
      else it(label, async () => {}, timeout);
      return;
    }
    it(
      title,
      async () => {
        const subject = await make();
        try {
          await body(subject);
        } finally {
          await closeTwice(subject.agent);
        }
      },
      timeout,
    );
  }

  // Complete as well as valid: parsing fills in no default the adapter left out (code downstream
  // reads `tool_calls`, `usage` and `metadata` without checking they are there).
  const valid = (output: AgentOutput) => {
    const parsed = AgentOutputSchema.safeParse(output);
    expect(parsed.success, 'the output matches AgentOutputSchema').toBe(true);
    expect(output, 'the output is a complete AgentOutput').toEqual(parsed.data);
  };
  const stopped = async (subject: ContractSubject, kind: 'timeout' | 'aborted', stop: AbortSignal) => {
    const output = await runTrial(subject, stop);
    valid(output);
    expect(output.error_kind, output.error).toBe(kind);
    return output;
  };
  const aborting = () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the run was interrupted')), stopAfter);
    return controller.signal;
  };

  describe(`adapter contract: ${name}`, () => {
    contractCase('succeeds with a valid output', factory.success, async (subject) => {
      const output = await runTrial(subject, new AbortController().signal);
      valid(output);
      expect(output.error, 'no error').toBe(undefined);
      expect(output.output).toEqual(subject.output);
    });

    for (const [how, make] of Object.entries(factory.errors))
      contractCase(`contains ${how} as an errored output`, make, async (subject) => {
        // `run` resolving at all is the first half: an adapter never throws.
        const output = await runTrial(subject, new AbortController().signal);
        valid(output);
        expect(output.error_kind, output.error).toBe(subject.error_kind);
        expect(typeof output.error === 'string' && output.error !== '', 'an error message').toBe(true);
      });

    contractCase('stops at the trial timeout (timeout)', factory.hang, async (subject) => {
      await stopped(subject, 'timeout', AbortSignal.timeout(stopAfter));
    });
    contractCase('stops when the run is interrupted (aborted)', factory.hang, async (subject) => {
      await stopped(subject, 'aborted', aborting());
    });
    contractCase(
      'does not start a trial whose signal already fired (aborted)',
      factory.hang,
      async (subject) => {
        const controller = new AbortController();
        controller.abort(new Error('the run was interrupted'));
        await stopped(subject, 'aborted', controller.signal);
      },
    );

    contractCase('leaves no process behind after a timeout', factory.orphans, async (subject) => {
      await stopped(subject, 'timeout', AbortSignal.timeout(stopAfter * 2));
      expect(await waitForNone(subject.leftovers), 'processes still running').toEqual([]);
    });

    contractCase('reports usage', factory.usage, async (subject) => {
      const output = await runTrial(subject, new AbortController().signal);
      valid(output);
      expect(output.error, 'no error').toBe(undefined);
      expect(output.usage).toMatchObject(subject.usage);
    });

    contractCase('reports agent and tool calls', factory.events, async (subject) => {
      const output = await runTrial(subject, new AbortController().signal);
      valid(output);
      const calls = output.trace?.agent_calls.length ?? 0;
      expect(
        calls >= (subject.agent_calls ?? 0),
        `${calls} agent calls, at least ${subject.agent_calls ?? 0} expected`,
      ).toBe(true);
      if (subject.tool_calls !== undefined)
        expect(output.tool_calls.map((call) => call.tool_name)).toEqual(subject.tool_calls);
    });
  });
}
