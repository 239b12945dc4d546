import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { jsonSchemaHasPatterns, jsonSchemaRegexProblem } from '../util/regex-safety.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary, cannotJudge, type Verdict } from './result.ts';
import { outputAsJson } from './text.ts';
import { timedMatch, unansweredMatch } from './timed-match.ts';
import type { EvaluationContext, EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.json_schema;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema file (JSON or YAML) relative to the file that names the evaluator. */
async function loadSchemaFile(file: string, baseDir: string): Promise<Record<string, unknown>> {
  const path = resolve(baseDir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessEvalError(
      'not_found',
      `json_schema: cannot read schema file ${path}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  let schema: unknown;
  try {
    schema = parseYaml(text);
  } catch (error) {
    throw new HarnessEvalError(
      'invalid_config',
      `json_schema: ${path} is not JSON or YAML: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  if (!isRecord(schema))
    throw new HarnessEvalError('invalid_config', `json_schema: ${path} does not hold an object`);
  return schema;
}

function isDraft2020(schema: Record<string, unknown>): boolean {
  return typeof schema['$schema'] === 'string' && schema['$schema'].includes('2020-12');
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const problem = jsonSchemaRegexProblem(schema);
  if (problem !== undefined) {
    throw new HarnessEvalError(
      'invalid_config',
      `json_schema: pattern /${problem.pattern}/ at ${problem.where} is refused: ${problem.reason}`,
    );
  }
  const draft2020 = isDraft2020(schema);
  const ajv = draft2020
    ? new Ajv2020({ allErrors: true, strict: false })
    : new Ajv({ allErrors: true, strict: false });
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `json_schema: invalid schema: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

function describe(error: Pick<ErrorObject, 'instancePath' | 'message'>): string {
  return `${error.instancePath === '' ? '(root)' : error.instancePath} ${error.message ?? 'is invalid'}`;
}

function verdict(
  valid: boolean,
  errorObjects: readonly Pick<ErrorObject, 'instancePath' | 'message'>[],
): Verdict {
  if (valid) return binary(true, 'output validates against the schema');
  const errors = errorObjects.map(describe);
  const shown = errors.slice(0, 5).join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '');
  return binary(false, `output does not validate: ${shown}`, { errors: errors.slice(0, 50) });
}

/**
 * A schema with `pattern`s runs a regex the suite chose over data the agent chose: it is validated
 * on a match worker with a time limit (compiled there from the same schema, with the same options).
 */
function onWorker(schema: Record<string, unknown>) {
  const job = {
    kind: 'json_schema' as const,
    key: JSON.stringify(schema),
    schema,
    draft2020: isDraft2020(schema),
  };
  return async (data: unknown, trial: Pick<EvaluationContext, 'output' | 'signal'>): Promise<Verdict> => {
    const outcome = await timedMatch({ ...job, data }, trial);
    if (outcome.kind !== 'done')
      return cannotJudge(unansweredMatch(outcome, 'validating against the schema'));
    const reply = outcome.value as {
      valid: boolean;
      errors: Pick<ErrorObject, 'instancePath' | 'message'>[];
    };
    return verdict(reply.valid, reply.errors);
  };
}

/** The output (structured, or text parsed as JSON) validates against a JSON Schema (compiled once with ajv). */
export const jsonSchema: EvaluatorDefinition<typeof options> = {
  name: 'json_schema',
  description: 'output validates against a JSON Schema',
  options,
  async create(opts, environment) {
    const schema =
      typeof opts.schema === 'string' ? await loadSchemaFile(opts.schema, environment.baseDir) : opts.schema;
    const validate = compile(schema);
    const remote = jsonSchemaHasPatterns(schema) ? onWorker(schema) : undefined;
    return evaluatorFrom('json_schema', ({ output, signal }) => {
      const data = outputAsJson(output);
      if (!data.ok) return binary(false, data.reason);
      if (remote !== undefined) return remote(data.value, { output, signal });
      return verdict(validate(data.value), validate.errors ?? []);
    });
  },
};
