import { readFileSync } from 'node:fs';
import type { Diagnostic, Severity } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Suite } from '../core/suite.ts';
import { analyzeRegex } from '../util/regex-safety.ts';
import { type FileKind, isJsonlDataset } from './detect.ts';
import { streamEvalCases } from './eval-case-stream.ts';
import { KNOWN_EVAL_CASE_VERSIONS } from './eval-case-v0-rules.ts';
import { patternOptionProblem } from './pattern-check.ts';
import type { PluginNames } from './plugin-check.ts';
import { assertFile } from './read-file.ts';

/** Stable lint rule codes and their severities. */
export const LINT_RULES = {
  'duplicate-id': 'error',
  'missing-tags': 'warning',
  'schema-version-drift': 'warning',
  'regex-catastrophic': 'error',
  'duplicate-prompt': 'warning',
  'zero-weight': 'warning',
  /** The file does not validate; its schema diagnostics are reported under this code. */
  invalid: 'error',
} as const satisfies Record<string, Severity>;
export type LintCode = keyof typeof LINT_RULES;

function finding(file: string, line: number, path: string, code: LintCode, message: string): Diagnostic {
  return { file, line, col: 1, path, message, severity: LINT_RULES[code], code };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Lints one input file: schema errors plus the dataset-hygiene rules above. */
export async function lintFile(
  path: string,
  options: { format?: FileKind; plugins?: PluginNames } = {},
): Promise<Diagnostic[]> {
  assertFile(path);
  const head = readFileSync(path)
    .subarray(0, 64 * 1024)
    .toString('utf8');
  if (options.format === 'eval-case-v0' || (options.format === undefined && isJsonlDataset(path, head)))
    return lintEvalCases(path);
  const { loadSuite } = await import('./load.ts');
  try {
    return lintSuite(
      await loadSuite(path, {
        ...(options.format === undefined ? {} : { format: options.format }),
        ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
      }),
      path,
    );
  } catch (error) {
    if (HarnessEvalError.is(error) && error.code === 'invalid_input' && error.diagnostics.length > 0)
      return error.diagnostics.map((d) => ({ ...d, code: d.code ?? 'invalid' }));
    throw error;
  }
}

async function lintEvalCases(file: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const ids = new Map<string, number>();
  const prompts = new Map<string, number>();
  const versions = new Map<string, { count: number; line: number }>();
  for await (const record of streamEvalCases(file)) {
    // Drift is read from the raw record, so a record that fails validation still counts.
    const raw = record.raw;
    if (isRecord(raw) && typeof raw['schema_version'] === 'string') {
      const seen = versions.get(raw['schema_version']);
      if (seen === undefined) versions.set(raw['schema_version'], { count: 1, line: record.line });
      else seen.count++;
    }
    if ('diagnostics' in record) {
      out.push(...record.diagnostics.map((d) => ({ ...d, code: d.code ?? 'invalid' })));
      continue;
    }
    const c = record.value;
    const firstId = ids.get(c.case_id);
    if (firstId !== undefined)
      out.push(
        finding(
          file,
          record.line,
          'case_id',
          'duplicate-id',
          `duplicate case_id "${c.case_id}" (first on line ${firstId})`,
        ),
      );
    else ids.set(c.case_id, record.line);
    if (c.tags.length === 0)
      out.push(finding(file, record.line, 'tags', 'missing-tags', `case "${c.case_id}" has no tags`));
    const prompt = c.prompt.trim().toLowerCase();
    const firstPrompt = prompts.get(prompt);
    if (firstPrompt !== undefined)
      out.push(
        finding(file, record.line, 'prompt', 'duplicate-prompt', `same prompt as line ${firstPrompt}`),
      );
    else prompts.set(prompt, record.line);
    if (c.expected_output_type === 'regex' && c.expected_output !== null) {
      const safety = analyzeRegex(c.expected_output, '');
      if (!safety.safe)
        out.push(
          finding(
            file,
            record.line,
            'expected_output',
            'regex-catastrophic',
            `regex can backtrack catastrophically: ${safety.reason}`,
          ),
        );
    }
  }
  out.push(...versionDrift(file, versions));
  return out.sort((a, b) => a.line - b.line);
}

function versionDrift(file: string, versions: Map<string, { count: number; line: number }>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const known: readonly string[] = KNOWN_EVAL_CASE_VERSIONS;
  const newest = known[known.length - 1];
  if (versions.size > 1) {
    const list = [...versions].map(([v, s]) => `${v} (${s.count})`).join(', ');
    const second = [...versions.values()][1];
    out.push(
      finding(
        file,
        second?.line ?? 1,
        'schema_version',
        'schema-version-drift',
        `the dataset mixes schema versions: ${list}`,
      ),
    );
  }
  for (const [version, seen] of versions) {
    if (known.includes(version) && version !== newest)
      out.push(
        finding(
          file,
          seen.line,
          'schema_version',
          'schema-version-drift',
          `schema version ${version} is older than the newest known (${newest})`,
        ),
      );
  }
  return out;
}

/** The rules on a loaded suite (benchmark, suite file or task spec). */
function lintSuite(suite: Suite, path: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ids = new Map<string, number>();
  const prompts = new Map<string, string>();
  const where = (i: number) => {
    const task = suite.tasks[i];
    return {
      file:
        task?.source?.file === undefined || suite.source?.format === 'benchmark-v1' ? path : task.source.file,
      line: task?.source?.line ?? 0,
    };
  };
  suite.tasks.forEach((task, i) => {
    const at = where(i);
    const first = ids.get(task.id);
    if (first !== undefined)
      out.push(finding(at.file, at.line, 'id', 'duplicate-id', `duplicate task id "${task.id}"`));
    else ids.set(task.id, i);
    if (task.tags.length === 0)
      out.push(finding(at.file, at.line, 'tags', 'missing-tags', `task "${task.id}" has no tags`));
    if (task.weight === 0)
      out.push(
        finding(
          path,
          0,
          `tasks[${i}].weight`,
          'zero-weight',
          `task "${task.id}" has weight 0 and never counts`,
        ),
      );
    if (typeof task.input === 'string') {
      const key = task.input.trim().toLowerCase();
      const other = prompts.get(key);
      if (other !== undefined)
        out.push(finding(at.file, at.line, 'input', 'duplicate-prompt', `same input as task "${other}"`));
      else prompts.set(key, task.id);
    }
    const refs = [
      ...task.evaluators,
      ...task.criteria.flatMap((c) => (c.evaluator === undefined ? [] : [c.evaluator])),
    ];
    for (const ref of refs) out.push(...regexFinding(ref, at.file, at.line));
  });
  for (const ref of suite.evaluators) out.push(...regexFinding(ref, path, 0));
  return out;
}

function regexFinding(
  ref: { name: string; options: Record<string, unknown> },
  file: string,
  line: number,
): Diagnostic[] {
  const problem = patternOptionProblem(ref.name, ref.options);
  return problem === undefined
    ? []
    : [finding(file, line, `options.${problem.option}`, 'regex-catastrophic', problem.message)];
}
