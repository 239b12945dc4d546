import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadHarnessConfig, loadSuite } from '../../src/formats/index.ts';
import { costOf, DEFAULT_PRICES, mergePrices } from '../../src/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = join(root, 'examples/integration');
const guide = () => readFile(join(root, 'docs/integration-guide.md'), 'utf8');

async function runWith(harnessName: string) {
  const harnessFile = join(examples, harnessName);
  const experiment = await runExperiment({
    suite: await loadSuite(join(examples, 'benchmark.yaml')),
    harness: await loadHarnessConfig(harnessFile),
    harnessBaseDir: dirname(harnessFile),
    env: { PATH: process.env['PATH'] ?? '' },
  });
  const record = experiment.records[0];
  if (record === undefined) throw new Error('no record');
  return record;
}

describe('docs/integration-guide.md', () => {
  it('quotes the example files verbatim', async () => {
    const text = await guide();
    for (const file of [
      'minimal-harness.ts',
      'minimal-harness.yaml',
      'minimal-harness.sh',
      'minimal-harness-sh.yaml',
    ]) {
      expect(text, file).toContain((await readFile(join(examples, file), 'utf8')).trimEnd());
    }
  });

  it.each([
    ['minimal-harness.yaml', 'trackers'],
    ['minimal-harness-sh.yaml', 'events'],
  ])(
    '%s (%s) runs and reports the same metrics',
    async (harness) => {
      const record = await runWith(harness);
      expect(record.error).toBeUndefined();
      expect(record.outcome).toBe('pass');
      expect(record.metrics).toMatchObject({
        prompts_planned: 1,
        prompts_unplanned: 0,
        hitl_planned: 1,
        first_pass_approval: true,
        tokens_in: 12,
        tokens_out: 4,
        human_minutes: 1,
        agent_calls: 1,
      });
      expect(record.cost_usd).toBeCloseTo(0.0000042, 12);
      expect(record.by_role['developer']).toMatchObject({ calls: 1, tokens_in: 12 });
    },
    60_000,
  );

  it('prices tokens as the cost section says', async () => {
    const prices = mergePrices(DEFAULT_PRICES, {
      models: { 'my-provider/my-model': { input: 1, output: 4 } },
    });
    expect(
      costOf(prices, { model: 'gpt-4o-mini', provider: 'openai', tokens_in: 12_000, tokens_out: 800 }),
    ).toBeCloseTo(0.00228, 10);
    expect(costOf(prices, { model: 'my-model', tokens_in: 1_000_000, tokens_out: 0 })).toBe(1);
    expect(costOf(prices, { model: 'unknown-model', tokens_in: 1, tokens_out: 1 })).toBeUndefined();
    expect(await guide()).toContain('// 0.00228 (USD)');
  });
});
