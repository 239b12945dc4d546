import { fileURLToPath } from 'node:url';
import type { AdapterEnvironment, TrialContext } from '../../../src/adapters/types.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { type TaskInput, TaskSchema } from '../../../src/core/task.ts';

/** The folder of the adapter fixtures, which relative module paths resolve against. */
export const fixturesDir = fileURLToPath(new URL('../../fixtures/adapters/', import.meta.url));

export function environment(adapter: string, env: NodeJS.ProcessEnv = {}): AdapterEnvironment {
  return { baseDir: fixturesDir, harness: HarnessConfigSchema.parse({ adapter, name: 'test-harness' }), env };
}

export interface ContextOptions {
  readonly signal?: AbortSignal;
  readonly env?: Record<string, string>;
  readonly workspace?: string;
  readonly input?: TaskInput;
}

export function trialContext(options: ContextOptions = {}): TrialContext {
  return {
    task: TaskSchema.parse({ id: 'case-1', input: options.input ?? 'Ada' }),
    epoch: 0,
    trialId: 'case-1#0',
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? {},
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
  };
}
