/**
 * What `harnesseval init` writes besides the harness: a suite with one task of each verification
 * kind (automated, rubric, human; plus a command-checked workspace task for harnesses that work
 * in a workspace), its rubric, a CI workflow that compares each pull request with main, and a
 * README. Pure functions: answers in, files out.
 */
import { DEFAULT_SCORING } from '../../core/suite.ts';
import { ciWorkflow, projectReadme } from './init-docs.ts';
import { type GeneratedFile, harnessFiles, hasWorkspace, type InitAnswers } from './init-harness.ts';

function suiteYaml(answers: InitAnswers): string {
  const workspaceTask = hasWorkspace(answers.adapter)
    ? '  - ref: "tasks/greeting-file.yaml"\n    weight: 1.0\n'
    : '';
  return `# The ${answers.name} suite: one task of each verification kind. Check it with
#   npx harnesseval validate evals/suite.yaml && npx harnesseval lint evals/suite.yaml
suite_id: "${answers.name}-v1"
domain: "${answers.domain}"
description: "Starter tasks for ${answers.name}: replace them with the work your harness does."

tasks:
  - ref: "tasks/greet-by-name.yaml"
    weight: 1.0
${workspaceTask}  - ref: "tasks/warm-welcome.yaml"
    weight: 0.5
  - ref: "tasks/reviewer-sign-off.yaml"
    weight: 0.5

scoring:
  method: "${DEFAULT_SCORING.method}"
  pass_threshold: ${DEFAULT_SCORING.pass_threshold}
`;
}

const task = (answers: InitAnswers, body: string) => body.replaceAll('DOMAIN', answers.domain);

const AUTOMATED_TASK = `# verification: automated — decided by evaluators on the harness's answer, pass or fail.
id: "greet-by-name"
domain: "DOMAIN"
description: "Greet Ada Lovelace."
difficulty: "easy"
acceptance_criteria:
  - id: "ac-01"
    description: "The answer is exactly the greeting"
    verification: "automated"
    evaluator:
      name: exact_match
      options: { expected: "Hello, Ada Lovelace!" }
  - id: "ac-02"
    description: "The answer is one short line"
    verification: "automated"
    evaluator:
      name: text_length
      options: { unit: words, max: 8 }
tags: ["starter", "automated"]
`;

const WORKSPACE_TASK = `# verification: automated — a command run in the trial's workspace after the harness finishes.
# The harness works in a fresh copy of codebases/greeting-file; checks/ is put back if it edits it.
id: "greeting-file"
domain: "DOMAIN"
description: "Greet Margaret Hamilton in the file GREETING.txt."
difficulty: "easy"
inputs:
  codebase: "ref:../codebases/greeting-file"
protected_files: ["checks/*"]
acceptance_criteria:
  - id: "ac-01"
    description: "GREETING.txt holds the greeting"
    verification: "automated"
    command: ["node", "checks/greeting.mjs"]
    timeout_seconds: 30
tags: ["starter", "workspace"]
`;

const RUBRIC_TASK = `# verification: rubric — graded on rubric.yaml by an LLM judge (run --judge PROVIDER:MODEL) or by
# a person (harnesseval grade). Without either it stays pending; the automated part still counts.
id: "warm-welcome"
domain: "DOMAIN"
description: "Greet Grace Hopper."
difficulty: "medium"
acceptance_criteria:
  - id: "ac-01"
    description: "The greeting names Grace"
    verification: "automated"
    evaluator:
      name: contains
      options: { substring: "Grace Hopper" }
  - id: "ac-02"
    description: "The greeting is warm and clear"
    verification: "rubric"
    rubric_dimensions: ["tone", "clarity"]
rubric: "ref:../rubric.yaml"
tags: ["starter", "rubric"]
`;

const HUMAN_TASK = `# verification: human — a person signs it off with: npx harnesseval grade <experiment-id>
id: "reviewer-sign-off"
domain: "DOMAIN"
description: "Greet Katherine Johnson."
difficulty: "medium"
acceptance_criteria:
  - id: "ac-01"
    description: "The greeting names Katherine"
    verification: "automated"
    evaluator:
      name: contains
      options: { substring: "Katherine Johnson" }
  - id: "ac-02"
    description: "A reviewer would send this greeting to Katherine as it is"
    verification: "human"
rubric: "ref:../rubric.yaml"
tags: ["starter", "human"]
`;

const RUBRIC = `# The rubric (seed 004 format): dimensions with a weight and four levels; level L scores (L - 1) / 3.
# The examples calibrate an LLM judge and human graders: add real outputs with the level they deserve.
id: starter
rubric:
  tone:
    weight: 0.5
    levels:
      1: "Cold, rude or robotic"
      2: "Polite but flat"
      3: "Warm and natural"
      4: "Warm, natural and personal to the reader"
    examples:
      - output: "GREETING: KATHERINE JOHNSON."
        level: 1
        rationale: "Reads like a system message, not a greeting."
      - output: "Hello, Katherine Johnson!"
        level: 3
        rationale: "Friendly and natural; nothing personal to her."
  clarity:
    weight: 0.5
    levels:
      1: "Unclear who is greeted or why"
      2: "Clear, with clutter"
      3: "Clear and short"
      4: "Clear, short, and nothing could be cut"
`;

const GREETING_CHECK = `#!/usr/bin/env node
// The workspace task's check: GREETING.txt holds "Hello, Margaret Hamilton!". Exit 0 or 1.
import { readFileSync } from 'node:fs';

let text = '';
try {
  text = readFileSync('GREETING.txt', 'utf8').trim();
} catch {
  process.stdout.write('FAIL GREETING.txt does not exist\\n');
  process.exit(1);
}
if (text !== 'Hello, Margaret Hamilton!') {
  process.stdout.write('FAIL GREETING.txt says ' + JSON.stringify(text) + '\\n');
  process.exit(1);
}
process.stdout.write('ok GREETING.txt holds the greeting\\n');
`;

function taskFiles(answers: InitAnswers): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: 'evals/suite.yaml', content: suiteYaml(answers) },
    { path: 'evals/rubric.yaml', content: RUBRIC },
    { path: 'evals/tasks/greet-by-name.yaml', content: task(answers, AUTOMATED_TASK) },
    { path: 'evals/tasks/warm-welcome.yaml', content: task(answers, RUBRIC_TASK) },
    { path: 'evals/tasks/reviewer-sign-off.yaml', content: task(answers, HUMAN_TASK) },
  ];
  if (hasWorkspace(answers.adapter)) {
    files.push(
      { path: 'evals/tasks/greeting-file.yaml', content: task(answers, WORKSPACE_TASK) },
      {
        path: 'evals/codebases/greeting-file/README.md',
        content:
          '# greeting-file\n\nThe starter workspace of the greeting-file task: the harness writes GREETING.txt here.\n',
      },
      {
        path: 'evals/codebases/greeting-file/checks/greeting.mjs',
        content: GREETING_CHECK,
        executable: true,
      },
    );
  }
  return files;
}

/** Every file `init` writes for these answers, in the order it reports them. */
export function initFiles(answers: InitAnswers): GeneratedFile[] {
  return [
    ...taskFiles(answers),
    ...harnessFiles(answers),
    { path: 'evals/README.md', content: projectReadme(answers) },
    { path: '.github/workflows/harnesseval.yml', content: ciWorkflow(answers) },
  ];
}
