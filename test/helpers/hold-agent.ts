import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import type { Suite } from '../../src/core/suite.ts';
import { loadSuiteWithPlugins } from '../../src/plugins/file-plugins.ts';
import { copyPluginSet, defaultPlugins } from '../../src/plugins/set.ts';
import { enqueueExperiment } from '../../src/queue/enqueue.ts';
import type { QueueStore } from '../../src/queue/trial-job.ts';
import type { TrialQueue } from '../../src/queue/trial-queue.ts';
import type { ExperimentDocument } from '../../src/store/documents.ts';

/**
 * An in-process harness for queue tests that run a worker in the test's own process: it answers
 * its input at once, except `hang`, which waits until the test releases it (`holdHang`).
 */
interface Hold {
  started: () => void;
  released: Promise<void>;
}
const holder = globalThis as { __queueTestHold?: Hold };

const HOLD_AGENT = `export async function answer(input) {
  if (input === 'hang') {
    const hold = globalThis.__queueTestHold;
    hold.started();
    await hold.released;
  }
  return input;
}
`;

/** The next `hang` trial: `started` resolves when it begins, `release` lets it answer. */
export function holdHang(): { started: Promise<void>; release: () => void } {
  let started: () => void = () => {};
  let release: () => void = () => {};
  holder.__queueTestHold = {
    started: () => started(),
    released: new Promise<void>((resolve) => {
      release = resolve;
    }),
  };
  return { started: new Promise<void>((resolve) => (started = resolve)), release };
}

/**
 * Writes `dir/NAME.yaml` (a seed-000 suite of `inputs`, task ids t0, t1, …, each expecting its
 * input) and the harness beside it, and queues it as `run --queue` does.
 */
export async function enqueueHeldSuite(options: {
  readonly store: QueueStore;
  readonly queue: TrialQueue;
  readonly dir: string;
  readonly name: string;
  readonly inputs: readonly string[];
}): Promise<{ experiment: ExperimentDocument; suite: Suite }> {
  const { dir, name } = options;
  await writeFile(join(dir, 'hold-agent.mjs'), HOLD_AGENT);
  const tests = options.inputs
    .map((input, i) => `  - id: t${i}\n    input: "${input}"\n    expected: "${input}"\n`)
    .join('');
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, `version: "1.0"\nname: ${name}\ntests:\n${tests}`);
  const suite = await loadSuiteWithPlugins(file, copyPluginSet(defaultPlugins));
  const harness = HarnessConfigSchema.parse({
    name: 'hold',
    version: '1.0.0',
    adapter: 'function',
    options: { module: './hold-agent.mjs#answer' },
  });
  const { store, queue } = options;
  const { experiment } = await enqueueExperiment({
    store,
    queue,
    suite,
    harness,
    harnessBaseDir: dir,
    cwd: dir,
  });
  return { experiment, suite };
}
