import { isDeepStrictEqual } from 'node:util';
import { type JsonValue, query } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { analyzeRegex } from '../util/regex-safety.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary, cannotJudge } from './result.ts';
import { outputAsJson, preview } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.jsonpath;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * `match()` and `search()` in a filter run a regular expression over the agent's data. Their
 * patterns must be literals (a pattern taken from the output would let the agent choose it)
 * and must pass the same safety check as the regex evaluator.
 */
function checkFilterRegexes(node: unknown, path: string): void {
  if (Array.isArray(node)) {
    for (const item of node) checkFilterRegexes(item, path);
    return;
  }
  if (!isRecord(node)) return;
  if (node['type'] === 'FunctionExpr' && (node['name'] === 'match' || node['name'] === 'search')) {
    const args = node['arguments'];
    const pattern = Array.isArray(args) ? args[1] : undefined;
    if (!isRecord(pattern) || pattern['type'] !== 'Literal' || typeof pattern['value'] !== 'string') {
      throw new HarnessEvalError(
        'invalid_config',
        `jsonpath ${path}: ${String(node['name'])}() needs a literal pattern`,
      );
    }
    const safety = analyzeRegex(pattern['value'], 'u');
    if (!safety.safe) {
      throw new HarnessEvalError(
        'invalid_config',
        `jsonpath ${path}: pattern refused: ${safety.reason ?? ''}`,
      );
    }
  }
  for (const value of Object.values(node)) checkFilterRegexes(value, path);
}

/** Parses the path once; a syntax error or an unsafe filter regex is a configuration error. */
export function checkJsonPath(path: string): void {
  let ast: unknown;
  try {
    ast = parseJsonPath(path);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `jsonpath: invalid path "${path}": ${errorMessage(error)}`, {
      cause: error,
    });
  }
  checkFilterRegexes(ast, path);
}

/** JSON data only: the output parsed from text is JSON already; structured output is checked. */
function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isRecord(value)) return Object.values(value).every(isJsonValue);
  return false;
}

/** RFC 9535 JSONPath (no eval): the path selects something, or its first value deep-equals `value`. */
export const jsonpath: EvaluatorDefinition<typeof options> = {
  name: 'jsonpath',
  description: 'a JSONPath (RFC 9535) exists in the output, or selects the expected value',
  options,
  create(opts) {
    checkJsonPath(opts.path);
    const wantsValue = opts.value !== undefined;
    return evaluatorFrom('jsonpath', ({ output }) => {
      const data = outputAsJson(output, opts.target);
      if (!data.ok) return binary(false, data.reason, { path: opts.path });
      if (!isJsonValue(data.value)) return cannotJudge('the output holds values that are not JSON');
      let nodes: JsonValue[];
      try {
        nodes = query(data.value, opts.path);
      } catch (error) {
        return cannotJudge(`jsonpath ${opts.path} failed: ${errorMessage(error)}`);
      }
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
