import { isDeepStrictEqual } from 'node:util';
import { type JsonValue, query } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { isJsonData } from '../util/json-depth.ts';
import { jsonPathRegexProblem } from '../util/regex-safety.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary, cannotJudge, type Verdict } from './result.ts';
import { outputAsJson, preview } from './text.ts';
import { timedMatch, unansweredMatch } from './timed-match.ts';
import type { EvaluationContext, EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.jsonpath;

/**
 * Parses the path once; a syntax error or an unsafe filter regex is a configuration error.
 * Returns whether the path runs a regex (`match()`/`search()`) over the data.
 */
export function checkJsonPath(path: string): { readonly usesRegex: boolean } {
  let ast: unknown;
  try {
    ast = parseJsonPath(path);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `jsonpath: invalid path "${path}": ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const problem = jsonPathRegexProblem(ast);
  if (problem !== undefined) {
    const pattern = problem.pattern === '' ? '' : ` /${problem.pattern}/`;
    throw new HarnessEvalError(
      'invalid_config',
      `jsonpath ${path}: ${problem.where} pattern${pattern} refused: ${problem.reason}`,
    );
  }
  return { usesRegex: /\b(?:match|search)\s*\(/.test(path) };
}

/**
 * The nodes the path selects. A path with regex filters runs on a match worker with a time limit:
 * on the main thread a polynomial pattern over a long string blocked the whole run for minutes.
 */
async function select(
  data: JsonValue,
  path: string,
  usesRegex: boolean,
  trial: Pick<EvaluationContext, 'output' | 'signal'>,
): Promise<{ ok: true; nodes: JsonValue[] } | { ok: false; verdict: Verdict }> {
  if (!usesRegex) {
    try {
      return { ok: true, nodes: query(data, path) };
    } catch (error) {
      return { ok: false, verdict: cannotJudge(`jsonpath ${path} failed: ${errorMessage(error)}`) };
    }
  }
  const outcome = await timedMatch({ kind: 'jsonpath', path, data }, trial);
  if (outcome.kind !== 'done')
    return { ok: false, verdict: cannotJudge(unansweredMatch(outcome, `jsonpath ${path}`), { path }) };
  return { ok: true, nodes: Array.isArray(outcome.value) ? (outcome.value as JsonValue[]) : [] };
}

/** RFC 9535 JSONPath (no eval): the path selects something, or its first value deep-equals `value`. */
export const jsonpath: EvaluatorDefinition<typeof options> = {
  name: 'jsonpath',
  description: 'a JSONPath (RFC 9535) exists in the output, or selects the expected value',
  options,
  create(opts) {
    const { usesRegex } = checkJsonPath(opts.path);
    const wantsValue = opts.value !== undefined;
    return evaluatorFrom('jsonpath', async ({ output, signal }) => {
      const data = outputAsJson(output, opts.target);
      if (!data.ok) return binary(false, data.reason, { path: opts.path });
      if (!isJsonData(data.value)) return cannotJudge('the output holds values that are not JSON');
      const selected = await select(data.value as JsonValue, opts.path, usesRegex, { output, signal });
      if (!selected.ok) return selected.verdict;
      const nodes = selected.nodes;
      const details = { path: opts.path, matches: nodes.length };
      if (nodes.length === 0) return binary(false, `${opts.path} selects nothing in the output`, details);
      const first = nodes[0];
      if (!wantsValue) return binary(true, `${opts.path} selects ${nodes.length} node(s)`, details);
      const passed = isDeepStrictEqual(first, opts.value);
      const shown = (v: unknown) => preview(JSON.stringify(v) ?? 'undefined', 120);
      return binary(
        passed,
        passed
          ? `${opts.path} is ${shown(first)}`
          : `${opts.path} is ${shown(first)}, expected ${shown(opts.value)}`,
        { ...details, value: shown(first) },
      );
    });
  },
};
