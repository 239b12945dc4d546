import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ModelScriptSchema } from '../../src/formats/model-script.ts';
import { costOf, DEFAULT_PRICES, mergePrices } from '../../src/instrument/pricing.ts';
import { ROOT } from './run-cli.ts';

/** What a model script (a file under ROOT) says the calls will be: tokens in our convention, tool calls, cost. */
export async function scriptFigures(
  file: string,
  model: string,
  pricing?: Parameters<typeof mergePrices>[1],
) {
  const script = ModelScriptSchema.parse(parse(await readFile(join(ROOT, file), 'utf8')));
  const prices = mergePrices(DEFAULT_PRICES, pricing);
  const calls = script.turns.map((t) => {
    const u = {
      input_tokens: t.usage?.input_tokens ?? 0,
      output_tokens: t.usage?.output_tokens ?? 0,
      cache_read_tokens: t.usage?.cache_read_tokens ?? 0,
      cache_write_tokens: t.usage?.cache_write_tokens ?? 0,
    };
    const call = {
      tokens_in: u.input_tokens + u.cache_read_tokens + u.cache_write_tokens,
      tokens_out: u.output_tokens,
      cached_tokens: u.cache_read_tokens,
      cache_write_tokens: u.cache_write_tokens,
    };
    return { ...call, cost: costOf(prices, { model, ...call }) ?? Number.NaN };
  });
  return { calls, tools: script.turns.flatMap((t) => t.tool_calls.map((c) => c.name)) };
}

export type ScriptFigures = Awaited<ReturnType<typeof scriptFigures>>;
