import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import jsonPathParse from 'jsonpath-rfc9535/parser';
import { type BuiltinAdapterName, isBuiltinAdapter } from '../adapters/catalog.ts';
import { type BuiltinEvaluatorName, isBuiltinEvaluator } from '../evaluators/catalog.ts';
import { parseModuleRef } from '../plugins/user-module.ts';
import { patternOptionProblem } from './pattern-check.ts';
import { patternProblem } from './regex-rule.ts';

/**
 * The checks a plugin's `create()` makes on its options before the first trial, made when a file
 * loads instead — so `validate` refuses exactly what `run` would refuse, located at the option.
 * They read the file system but never run user code: a module must exist, not import cleanly.
 * Options reach these checks already accepted by the plugin's zod schema.
 *
 * To add a rule: add (or extend) the entry for the plugin's name below. Each check returns its
 * problems, each naming the option (relative to `options`) that holds the bad value.
 */
export interface OptionProblem {
  /** The option's path below `options` (`pattern`, `module`, `schema`). */
  readonly option: readonly (string | number)[];
  readonly message: string;
  readonly expected: string;
  /** A lint rule code the problem falls under (`regex-catastrophic`). */
  readonly code?: string;
}

export interface OptionCheckContext {
  /** The file that names the plugin; relative paths in its options resolve against its folder. */
  readonly file: string;
}

type OptionCheck = (options: Record<string, unknown>, ctx: OptionCheckContext) => OptionProblem[];

function text(options: Record<string, unknown>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
}

/** `module: ./file.ts#name` must name a file that exists, relative to the naming file. */
function moduleFile(key: string): OptionCheck {
  return (options, ctx) => {
    const spec = text(options, key);
    if (spec === undefined) return [];
    let path: string;
    try {
      path = parseModuleRef(spec).path;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [{ option: [key], message, expected: 'path/to/file.ts#exportName' }];
    }
    const absolute = resolve(dirname(ctx.file), path);
    if (existsSync(absolute)) return [];
    return [
      {
        option: [key],
        message: `module file not found: ${absolute}`,
        expected: 'a TypeScript or JavaScript file, relative to this file',
      },
    ];
  };
}

function jsonPathOption(key: string): OptionCheck {
  return (options) => {
    const path = text(options, key);
    if (path === undefined) return [];
    try {
      jsonPathParse(path);
      return [];
    } catch (error) {
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      return [{ option: [key], message: `invalid JSONPath: ${reason}`, expected: 'an RFC 9535 JSONPath' }];
    }
  };
}

/** The `pattern` option (with `flags`, when the evaluator has them) passes the regex rule. */
const regexOptions: OptionCheck = (options) => {
  const pattern = text(options, 'pattern');
  if (pattern === undefined) return [];
  const problem = patternProblem(pattern, text(options, 'flags') ?? '');
  return problem === undefined ? [] : [{ option: ['pattern'], ...problem }];
};

const schemaFile: OptionCheck = (options, ctx) => {
  const schema = text(options, 'schema');
  if (schema === undefined) return [];
  const absolute = resolve(dirname(ctx.file), schema);
  return existsSync(absolute)
    ? []
    : [
        {
          option: ['schema'],
          message: `schema file not found: ${absolute}`,
          expected: 'a JSON or YAML schema file, relative to this file',
        },
      ];
};

/** A rubric option written as a file (`./rubric.yaml`) rather than the id of a loaded rubric. */
export function isRubricPath(value: string): boolean {
  return /[/\\]/.test(value) || /\.(ya?ml|json)$/i.test(value);
}

/** A rubric written as a file must exist; a rubric id is checked against the suite's rubrics later. */
const rubricFile: OptionCheck = (options, ctx) => {
  const rubric = text(options, 'rubric');
  if (rubric === undefined || !isRubricPath(rubric)) return [];
  const absolute = resolve(dirname(ctx.file), rubric);
  return existsSync(absolute)
    ? []
    : [
        {
          option: ['rubric'],
          message: `rubric file not found: ${absolute}`,
          expected: 'a rubric YAML file relative to this file, or the id of a rubric of the suite',
        },
      ];
};

/**
 * The patterns a `jsonpath` path (`match()`/`search()`) or an inline `json_schema` holds pass the
 * safety analysis the evaluator applies when it is created (pattern-check.ts); a path that does
 * not parse is reported by jsonPathOption.
 */
function embeddedPatterns(evaluator: 'jsonpath' | 'json_schema'): OptionCheck {
  return (options) => {
    const problem = patternOptionProblem(evaluator, options);
    if (problem === undefined || problem.message.startsWith('invalid JSONPath')) return [];
    return [{ ...problem, option: [problem.option], code: 'regex-catastrophic' }];
  };
}

const evaluatorChecks: { readonly [N in BuiltinEvaluatorName]?: readonly OptionCheck[] } = {
  llm_rubric: [rubricFile],
  human: [rubricFile],
  regex: [regexOptions],
  expect_error: [regexOptions],
  jsonpath: [jsonPathOption('path'), embeddedPatterns('jsonpath')],
  json_schema: [schemaFile, embeddedPatterns('json_schema')],
  javascript: [moduleFile('module')],
};

const INPUT_PLACEHOLDER = '{{input}}';

const cliInput: OptionCheck = (options) => {
  const args = Array.isArray(options['args']) ? options['args'] : [];
  if (options['input'] !== 'arg' || args.some((a) => typeof a === 'string' && a.includes(INPUT_PLACEHOLDER)))
    return [];
  return [
    {
      option: ['input'],
      message: `input: arg needs an argument containing ${INPUT_PLACEHOLDER}`,
      expected: `an args entry with ${INPUT_PLACEHOLDER}, or input: stdin`,
    },
  ];
};

const httpUrl: OptionCheck = (options) => {
  const url = text(options, 'url');
  if (url === undefined || /^https?:\/\//i.test(url)) return [];
  return [{ option: ['url'], message: `url "${url}" is not http: or https:`, expected: 'an http(s) URL' }];
};

const adapterChecks: { readonly [N in BuiltinAdapterName]?: readonly OptionCheck[] } = {
  function: [moduleFile('module')],
  generic: [moduleFile('module')],
  cli: [cliInput],
  http: [
    httpUrl,
    ...['output_path', 'tool_calls_path', 'usage_path', 'events_path'].map((key) => jsonPathOption(key)),
  ],
};

function run(
  checks: readonly OptionCheck[] | undefined,
  options: Record<string, unknown>,
  ctx: OptionCheckContext,
) {
  return (checks ?? []).flatMap((check) => check(options, ctx));
}

/** What a built-in evaluator's `create()` would refuse in these options (none for plugins). */
export function evaluatorOptionProblems(
  name: string,
  options: Record<string, unknown>,
  ctx: OptionCheckContext,
): OptionProblem[] {
  return isBuiltinEvaluator(name) ? run(evaluatorChecks[name], options, ctx) : [];
}

/** What a built-in adapter's `create()` would refuse in these options (none for plugins). */
export function adapterOptionProblems(
  name: string,
  options: Record<string, unknown>,
  ctx: OptionCheckContext,
): OptionProblem[] {
  return isBuiltinAdapter(name) ? run(adapterChecks[name], options, ctx) : [];
}
