import { describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { createEvaluator } from '../../../src/evaluators/registry.ts';
import { errored, fixturesDir, judge, makeTask } from './helpers.ts';

describe('javascript', () => {
  it('a boolean return passes or fails', async () => {
    expect(
      await judge('javascript', { module: './checks.ts#isPolite' }, { output: { output: 'Thank you!' } }),
    ).toMatchObject({ score: 1, passed: true });
    const r = await judge(
      'javascript',
      { module: './checks.ts#isPolite' },
      { output: { output: 'Go away' } },
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('returned false');
  });

  it('a number is the score (passes at 0.5 or more) and receives the options', async () => {
    const half = await judge(
      'javascript',
      { module: './checks.ts#lengthScore', options: { words: 4 } },
      { output: { output: 'one two' } },
    );
    expect(half).toMatchObject({ score: 0.5, passed: true });
    const low = await judge(
      'javascript',
      { module: './checks.ts#lengthScore' },
      { output: { output: 'one two' } },
    );
    expect(low).toMatchObject({ score: 0.2, passed: false });
  });

  it('an object return gives score, passed and explanation; async functions are awaited; task is passed', async () => {
    const same = await judge(
      'javascript',
      { module: './checks.ts#detailed' },
      { task: { expected: 'hi' }, output: { output: 'hi' } },
    );
    expect(same).toMatchObject({ score: 1, passed: true, explanation: 'same as expected' });
    const diff = await judge(
      'javascript',
      { module: './checks.ts#detailed' },
      { task: { expected: 'hi' }, output: { output: 'yo' } },
    );
    expect(diff).toMatchObject({ score: 0.25, passed: false, explanation: 'differs from hi' });
    expect(await judge('javascript', { module: './checks.ts#explicitPass' })).toMatchObject({
      score: 0.1,
      passed: true,
    });
  });

  it('uses the default export without #name', async () => {
    expect(
      (
        await judge(
          'javascript',
          { module: './checks.ts' },
          { output: { output: '', tool_calls: [{ tool_name: 'x' }] } },
        )
      ).passed,
    ).toBe(true);
  });

  it('a throw scores 0 with the message', async () => {
    const r = await judge('javascript', { module: './checks.ts#throws' });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.error).toContain('the judge exploded');
  });

  it('an invalid return shape scores 0 and says what was expected', async () => {
    for (const name of ['badReturn', 'outOfRange']) {
      const r = await judge('javascript', { module: `./checks.ts#${name}` });
      expect(r).toMatchObject({ score: 0, passed: false });
      expect(r.error).toMatch(/expected a boolean, a number 0\.\.1/);
    }
  });

  it('stops waiting for a function that never settles when the trial is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('trial timed out')), 50);
    const r = await judge(
      'javascript',
      { module: './checks.ts#neverSettles' },
      { signal: controller.signal },
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.error).toContain('aborted');
  });

  it('cannot alter the trial it judges', async () => {
    const evaluator = await createEvaluator(
      { name: 'javascript', options: { module: './checks.ts#mutates' }, negate: false },
      { baseDir: fixturesDir, env: {} },
    );
    const output = agentOutput({ output: 'original' });
    await evaluator.evaluate({ task: makeTask(), output, signal: new AbortController().signal });
    expect(output).toMatchObject({ output: 'original', tool_calls: [] });
  });

  it('refuses a missing file, a missing export, a non-function and a file that does not compile', async () => {
    await expect(judge('javascript', { module: './nope.ts#x' })).rejects.toThrow(/file not found/);
    await expect(judge('javascript', { module: './checks.ts#missing' })).rejects.toThrow(
      /no export "missing"/,
    );
    await expect(judge('javascript', { module: './checks.ts#notAFunction' })).rejects.toThrow(
      /not a function/,
    );
    await expect(judge('javascript', { module: './broken.ts#x' })).rejects.toThrow(/cannot load/);
    await expect(judge('javascript', { module: './checks.ts#bad-name' })).rejects.toThrow(/exportName/);
  });

  it('errored output scores 0 without calling the function; negate flips', async () => {
    expect(
      await judge('javascript', { module: './checks.ts#explicitPass' }, { output: errored }),
    ).toMatchObject({ score: 0, passed: false });
    expect(
      await judge(
        'javascript',
        { module: './checks.ts#isPolite' },
        { output: { output: 'rude' }, negate: true },
      ),
    ).toMatchObject({ passed: true, score: 1 });
    const thrown = await judge('javascript', { module: './checks.ts#throws' }, { negate: true });
    expect(thrown).toMatchObject({ passed: false, score: 0 });
  });
});
