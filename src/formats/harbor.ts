import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Diagnostic } from '../core/diagnostic.ts';
import { defaultScoring, type Suite } from '../core/suite.ts';
import type { Difficulty, Task, TaskStep } from '../core/task.ts';
import { type HarborTaskConfig, HarborTaskConfigSchema } from './harbor-schema.ts';
import { issuesToDiagnostics, located } from './issues.ts';
import { combinedHash, fileHash } from './read-file.ts';
import { parseTomlSource } from './toml-source.ts';

/** Where Harbor's container contract puts things (src/harbor/models/trial/paths.py, EnvironmentPaths). */
export const HARBOR_LOG_DIRS = ['/logs/agent', '/logs/verifier', '/logs/artifacts'] as const;
/** The workdir of a task that names none and needs no image (Harbor takes the image's WORKDIR). */
export const HARBOR_DEFAULT_WORKDIR = '/app';

export interface HarborLoadOptions {
  /** Multiplies every agent and verifier timeout (Harbor's --timeout-multiplier). */
  readonly timeoutMultiplier?: number;
}

/** Whether a folder is a Harbor task (has task.toml) or a folder of them. */
export function isHarborFolder(dir: string): boolean {
  if (existsSync(join(dir, 'task.toml'))) return true;
  return taskFolders(dir).length > 0;
}

function taskFolders(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return entries.map((e) => join(dir, e)).filter((p) => existsSync(join(p, 'task.toml')));
}

/**
 * A Harbor task folder, or a folder of task folders, as a suite. Each task's tests run as a
 * `harbor_verifier` after the agent; its reward is the trial's score.
 */
export function harborFolderToSuite(
  dir: string,
  options: HarborLoadOptions = {},
): { count: number; diagnostics: Diagnostic[]; suite?: Suite } {
  const single = existsSync(join(dir, 'task.toml'));
  const folders = single ? [dir] : taskFolders(dir);
  if (folders.length === 0)
    return {
      count: 0,
      diagnostics: [
        located(dir, { line: 0, col: 0 }, [], 'no task.toml here or in a sub-folder', 'a Harbor task folder'),
      ],
    };
  const diagnostics: Diagnostic[] = [];
  const tasks: Task[] = [];
  const hashes: string[] = [];
  const ids = new Map<string, string>();
  for (const folder of folders) {
    const r = harborTaskFromFolder(folder, options);
    diagnostics.push(...r.diagnostics);
    if (r.task === undefined) continue;
    const first = ids.get(r.task.id);
    if (first !== undefined) {
      diagnostics.push(
        located(
          join(folder, 'task.toml'),
          { line: 1, col: 1 },
          ['task', 'name'],
          `duplicate task ${r.task.id} (also ${first})`,
          'unique task names',
        ),
      );
      continue;
    }
    ids.set(r.task.id, folder);
    tasks.push(r.task);
    hashes.push(...r.files.map(fileHash));
  }
  if (diagnostics.length > 0) return { count: tasks.length, diagnostics };
  const needsImage = tasks.some(
    (t) => t.environment?.image !== undefined || t.environment?.build_context !== undefined,
  );
  const suite: Suite = {
    schema_version: 1,
    id: single ? (tasks[0]?.id ?? basename(dir)) : basename(dir),
    name: basename(dir),
    tasks,
    evaluators: [],
    metrics: [],
    thresholds: {},
    scoring: defaultScoring(),
    rubrics: [],
    // Harbor tasks live at container paths (/app, /logs, /tests): they always run in a sandbox.
    sandbox: { backend: needsImage ? 'docker' : 'bwrap', network: 'none', forward_ports: [], read_only: [] },
    source: { format: 'harbor-v1', file: dir, hash: combinedHash(hashes) },
  };
  return { count: tasks.length, diagnostics, suite };
}

/** Every file a task's hash covers: task.toml, instructions, tests and solutions. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const DIFFICULTIES = new Set<string>(['easy', 'medium', 'hard']);

function harborTaskFromFolder(
  folder: string,
  options: HarborLoadOptions,
): { task?: Task; diagnostics: Diagnostic[]; files: string[] } {
  const file = join(folder, 'task.toml');
  const text = readFileSync(file, 'utf8');
  const source = parseTomlSource(file, text);
  if (source.diagnostics.length > 0) return { diagnostics: [...source.diagnostics], files: [] };
  const raw = source.value as Record<string, unknown>;
  // Harbor renames the old top-level `version` to `schema_version` (TaskConfig.handle_version_rename).
  const renamed =
    raw['schema_version'] === undefined && raw['version'] !== undefined
      ? { ...raw, schema_version: raw['version'] }
      : raw;
  const parsed = HarborTaskConfigSchema.safeParse(renamed, { reportInput: true });
  if (!parsed.success)
    return { diagnostics: issuesToDiagnostics(parsed.error.issues, file, source.locate), files: [] };
  const config = parsed.data;
  const diagnostics: Diagnostic[] = [];
  const at = (path: (string | number)[], message: string, expected?: string) =>
    diagnostics.push(located(file, source.locate(path), path, message, expected));
  if (config.environment.os.toLowerCase() === 'windows')
    at(['environment', 'os'], 'Windows tasks are not supported', 'os = "linux"');
  const multiplier = options.timeoutMultiplier ?? 1;
  const workdir = config.environment.workdir ?? HARBOR_DEFAULT_WORKDIR;
  const envDir = join(folder, 'environment');
  const dockerfile = existsSync(join(envDir, 'Dockerfile'));
  const verifier = (tests: string[], section: HarborTaskConfig['verifier']) => ({
    name: 'harbor_verifier',
    options: {
      tests_dirs: tests,
      workdir,
      timeout_seconds: section.timeout_sec * multiplier,
      env: { ...config.verifier.env, ...section.env },
    },
    negate: false,
  });
  const tests = join(folder, 'tests');
  let steps: TaskStep[] | undefined;
  let input = '';
  const solutions: Record<string, string> = {};
  if (config.steps === undefined) {
    const instruction = join(folder, 'instruction.md');
    if (!existsSync(instruction))
      at([], 'instruction.md is missing', 'the task prompt in instruction.md beside task.toml');
    else input = readFileSync(instruction, 'utf8');
    if (!existsSync(join(tests, 'test.sh')))
      at([], 'tests/test.sh is missing', 'a test script that writes /logs/verifier/reward.txt');
  } else {
    steps = [];
    for (const [i, step] of config.steps.entries()) {
      const stepDir = join(folder, 'steps', step.name);
      const instruction = join(stepDir, 'instruction.md');
      const stepTests = join(stepDir, 'tests');
      if (!existsSync(instruction)) {
        at(['steps', i, 'name'], `steps/${step.name}/instruction.md is missing`, "the step's prompt");
        continue;
      }
      if (!existsSync(join(stepTests, 'test.sh')) && !existsSync(join(tests, 'test.sh')))
        at(
          ['steps', i, 'name'],
          `neither steps/${step.name}/tests/test.sh nor tests/test.sh exists`,
          'a test script for the step',
        );
      const workdirFiles = join(stepDir, 'workdir');
      const setup = existsSync(join(workdirFiles, 'setup.sh'));
      const agentTimeout = step.agent.timeout_sec ?? config.agent.timeout_sec;
      if (existsSync(join(stepDir, 'solution'))) solutions[step.name] = join(stepDir, 'solution');
      steps.push({
        id: step.name,
        input: readFileSync(instruction, 'utf8'),
        evaluators: [
          verifier(
            [tests, stepTests].filter((d) => existsSync(d)),
            step.verifier,
          ),
        ],
        ...(agentTimeout === undefined ? {} : { timeout_seconds: agentTimeout * multiplier }),
        ...(step.min_reward === undefined ? {} : { min_score: step.min_reward }),
        files: existsSync(workdirFiles) ? { workdir: workdirFiles } : {},
        ...(setup ? { setup: ['bash', `${workdir}/setup.sh`] } : {}),
      });
    }
  }
  if (diagnostics.length > 0) return { diagnostics, files: [] };
  const metadata = config.metadata;
  const category = typeof metadata['category'] === 'string' ? metadata['category'] : undefined;
  const difficulty =
    typeof metadata['difficulty'] === 'string' ? metadata['difficulty'].toLowerCase() : undefined;
  const id = config.task?.name ?? basename(folder);
  const solution = join(folder, 'solution');
  const task: Task = {
    id,
    name: id,
    ...(config.task?.description ? { description: config.task.description } : {}),
    input,
    criteria: [],
    evaluators: steps === undefined ? [verifier([tests], config.verifier)] : [],
    tags: [
      ...(config.task?.keywords ?? []),
      ...(category === undefined ? [] : [category]),
      ...(difficulty === undefined ? [] : [difficulty]),
    ],
    ...(difficulty !== undefined && DIFFICULTIES.has(difficulty)
      ? { difficulty: difficulty as Difficulty }
      : {}),
    weight: 1,
    ...(config.agent.timeout_sec === undefined
      ? {}
      : { timeout_seconds: config.agent.timeout_sec * multiplier }),
    files: {
      // An image-less task starts from its environment/ folder (a HarnessEval convention: Harbor
      // always builds an image from it).
      ...(!dockerfile && config.environment.docker_image === undefined && existsSync(envDir)
        ? { codebase: envDir }
        : {}),
      ...(existsSync(solution) ? { solution } : {}),
    },
    environment: {
      workdir,
      ...(config.environment.docker_image === undefined ? {} : { image: config.environment.docker_image }),
      ...(dockerfile && config.environment.docker_image === undefined ? { build_context: envDir } : {}),
      log_dirs: [...HARBOR_LOG_DIRS],
      ...(config.environment.memory_mb === undefined ? {} : { memory_mb: config.environment.memory_mb }),
    },
    ...(steps === undefined ? {} : { steps, step_scoring: config.multi_step_reward_strategy ?? 'mean' }),
    metadata: {
      harbor: {
        schema_version: config.schema_version,
        folder,
        ...(config.task?.version === undefined ? {} : { version: config.task.version }),
        ...(config.source === undefined ? {} : { source: config.source }),
        metadata,
        solution_env: config.solution.env,
        network_mode: config.environment.network_mode,
        ...(Object.keys(solutions).length === 0 ? {} : { step_solutions: solutions }),
      },
    },
    source: { file, line: 1 },
  };
  const files = [
    file,
    join(folder, 'instruction.md'),
    ...filesUnder(tests),
    ...filesUnder(solution),
    ...filesUnder(join(folder, 'steps')),
  ];
  return {
    task,
    diagnostics,
    files: files.filter(
      (f) => existsSync(f) && statSync(f).isFile() && !relative(folder, f).startsWith('..'),
    ),
  };
}
