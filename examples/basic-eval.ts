/**
 * The seed's integration snippet, runnable: evaluate one harness on one task spec.
 *   npx tsdown && node --import tsx examples/basic-eval.ts     (from the repository root)
 *
 * `myHarness` stands in for your harness. It calls no model: it applies the task's reference
 * solution (suites/product-dev/solutions/<task>/) to the workspace HarnessEval prepared, and
 * reports exactly what it did through the trackers on `ctx` — the kick-off prompt, one timed
 * developer step, and a tool call per file written. A real harness reports its model calls
 * (role, model, tokens, cost), human touchpoints and circuit breakers the same way; see
 * docs/integration-guide.md.
 */
import { cp, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { Evaluator, type Harness, TaskSpec } from 'harnesseval';

const myHarness: Harness = {
  name: 'reference-solution-harness',
  async run(task, ctx) {
    const codebase = task.files['codebase'];
    const workspace = ctx.workspace;
    if (codebase === undefined || workspace === undefined) throw new Error('this harness needs a codebase');
    const solution = join(dirname(dirname(codebase)), 'solutions', basename(codebase));
    ctx.prompts.planned(`Implement: ${task.description ?? task.id}`);
    const written = await ctx.agents.wrap({ role: 'developer' }, async () => {
      const entries = await readdir(solution, { recursive: true, withFileTypes: true });
      const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
      for (const file of files) {
        const path = relative(solution, file);
        await ctx.tools.wrap('write_file', { path }, () => cp(file, join(workspace, path)));
      }
      return files.length;
    });
    return `applied ${written} files of the reference solution`;
  },
};

// Load a task spec
const task = await TaskSpec.fromFile('suites/product-dev/tasks/auth-implementation.yaml');

// Wrap your harness
const evaluator = new Evaluator({
  harness: myHarness,
  task,
  config: {
    version: '0.3.1',
    trustTier: 'supervised',
  },
});

// Run the evaluation — this executes your harness
// with instrumentation capturing metrics automatically
const runRecord = await evaluator.run();

// Run record contains all metrics, scores, traces
console.log(runRecord.summary());
await runRecord.save('runs/');
