import { describe, expect, it } from 'vitest';
import { TaskSpec } from '../../../src/api/task-spec.ts';
import { RubricSchema } from '../../../src/core/rubric.ts';
import { TaskSchema } from '../../../src/core/task.ts';

describe('TaskSpec', () => {
  it('loads a seed-004 task spec with its rubric and workspace inputs', async () => {
    const spec = await TaskSpec.fromFile(
      new URL('../../../suites/product-dev/tasks/auth-implementation.yaml', import.meta.url).pathname,
    );
    expect(spec.id).toBe('auth-implementation');
    expect(spec.task.files['codebase']).toMatch(/codebases\/auth-implementation$/);
    expect(spec.rubric?.dimensions.map((d) => d.name)).toEqual([
      'code_quality',
      'convention_adherence',
      'test_quality',
    ]);
    const suite = spec.toSuite();
    expect(suite.tasks).toHaveLength(1);
    expect(suite.source?.format).toBe('task-spec-v1');
    expect(suite.scoring.pass_threshold).toBe(0.75);
  });

  it('wraps a task built in code, linking its rubric', () => {
    const rubric = RubricSchema.parse({
      id: 'r1',
      dimensions: [{ name: 'clarity', weight: 1, levels: { 1: 'a', 2: 'b', 3: 'c', 4: 'd' } }],
    });
    const spec = TaskSpec.fromTask(TaskSchema.parse({ id: 'in-code', input: 'do it' }), rubric);
    expect(spec.task.rubric).toBe('r1');
    expect(spec.toSuite().rubrics).toEqual([rubric]);
    expect(TaskSpec.fromTask(TaskSchema.parse({ id: 'plain', input: 'x' })).rubric).toBeUndefined();
  });

  it('reports a missing file as not_found', async () => {
    await expect(TaskSpec.fromFile('/nonexistent/task.yaml')).rejects.toMatchObject({ code: 'not_found' });
  });
});
