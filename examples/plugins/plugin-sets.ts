// examples/plugins/plugin-sets.ts
/**
 * Plugin sets: two runs in one process, each with its own plugins under the same names. In the
 * lenient set the evaluator `grader` passes every answer and the adapter `bot` answers "yes"; in
 * the strict set `grader` fails every answer and `bot` answers "no". Neither set touches the
 * default set (what `registerEvaluator` & co. add to).
 */
import {
  createPluginSet,
  HarnessConfigSchema,
  loadFilePlugins,
  loadSuite,
  runExperiment,
  SuiteSchema,
} from 'harnesseval';
import {
  binary,
  defineAdapter,
  defineEvaluator,
  definePlugin,
  noOptions,
  toResult,
} from 'harnesseval/plugin';

/** A plugin whose `grader` passes (or fails) everything and whose `bot` always says `answer`. */
function graderAndBot(passes: boolean, answer: string) {
  const grader = defineEvaluator({
    name: 'grader',
    description: passes ? 'passes every answer' : 'fails every answer',
    options: noOptions,
    create: () => ({
      specificationVersion: 'v1',
      name: 'grader',
      evaluate: async () => toResult('grader', binary(passes, passes ? 'lenient' : 'strict')),
    }),
  });
  const bot = defineAdapter({
    name: 'bot',
    description: `answers "${answer}"`,
    options: noOptions,
    create: async (_options, environment) => ({
      specificationVersion: 'v1',
      name: environment.harness.name,
      run: async () => ({
        output: answer,
        latency: 0,
        tool_calls: [],
        usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
        metadata: {},
      }),
    }),
  });
  return definePlugin({ evaluators: [grader], adapters: [bot] });
}

/** Runs one suite twice at once, through a lenient and a strict set; returns both experiments. */
export async function runWithTwoSets() {
  const lenient = createPluginSet(graderAndBot(true, 'yes'));
  const strict = createPluginSet(graderAndBot(false, 'no'));
  const suite = SuiteSchema.parse({
    id: 'two-sets',
    tasks: [{ id: 'q1', input: 'is it done?' }],
    evaluators: [{ name: 'grader' }],
  });
  const harness = HarnessConfigSchema.parse({ name: 'bot-harness', adapter: 'bot' });
  return Promise.all([
    runExperiment({ suite, harness, plugins: lenient }),
    runExperiment({ suite, harness, plugins: strict }),
  ]);
}

/** A benchmark file's `plugins:` modules loaded into a set of its own, then the file run with it. */
export async function runFileWithItsPlugins(file: string) {
  const plugins = createPluginSet();
  await loadFilePlugins(file, plugins);
  const suite = await loadSuite(file, { plugins });
  if (suite.harness === undefined) throw new Error(`${file} names no agent`);
  return runExperiment({ suite, harness: suite.harness, plugins });
}
