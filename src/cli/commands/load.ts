import type { CliIO } from '../io.ts';
import type { RegisterCommand } from './index.ts';

const EXAMPLES = `
Examples:
  $ harnesseval load examples/hello-world/datasets/hello-world-v0.jsonl
  $ harnesseval load cases.jsonl --validate
  $ harnesseval load cases.jsonl --validate --summary

Exit status: 0 loaded, 1 a record failed validation (with --validate) or the file is missing.`;

export const register: RegisterCommand = (program, io) => {
  program
    .command('load')
    .description('load a v0 eval-case JSONL dataset; optionally validate every record and summarise it')
    .argument('<file>', 'the JSONL dataset')
    .option('--validate', 'print PASS/FAIL for every record and the totals; exit 1 on any failure')
    .option('--summary', 'print totals by difficulty, output type and source type, and the unique tags')
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, opts: { validate?: boolean; summary?: boolean }) => runLoad(io, file, opts));
};

async function runLoad(
  io: CliIO,
  file: string,
  opts: { validate?: boolean; summary?: boolean },
): Promise<void> {
  const [{ streamEvalCases }, { formatDiagnostic }, { CliExit, EXIT }, { isEvalCaseDataset }] =
    await Promise.all([
      import('../../formats/eval-case-stream.ts'),
      import('../../core/diagnostic.ts'),
      import('../exit.ts'),
      import('../../formats/load.ts'),
    ]);
  // A benchmark or a README read line by line would "load 0 cases" and exit 0.
  if (!(await isEvalCaseDataset(file))) {
    io.stderr.write(
      `harnesseval: not a v0 JSONL dataset: ${file} (load reads one eval case per line; check other files with validate)\n`,
    );
    throw new CliExit(EXIT.failure);
  }
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const difficulty = { easy: 0, medium: 0, hard: 0 };
  const outputType = { exact: 0, regex: 0, jsonpath: 0 };
  const sourceType = { hand_written: 0, synthetic: 0, adversarial: 0 };
  const tags = new Set<string>();
  let passed = 0;
  let failed = 0;
  for await (const record of streamEvalCases(file)) {
    if ('diagnostics' in record) {
      failed++;
      if (opts.validate) {
        const [first, ...rest] = record.diagnostics.map(formatDiagnostic);
        out(`  Line ${record.line}: FAIL - ${first ?? 'invalid'}`);
        for (const line of rest) out(`    ${line}`);
      }
      continue;
    }
    const c = record.value;
    passed++;
    difficulty[c.difficulty]++;
    outputType[c.expected_output_type]++;
    sourceType[c.provenance.source_type]++;
    for (const tag of c.tags) tags.add(tag);
    if (opts.validate) out(`  Line ${record.line}: PASS (${c.case_id})`);
  }
  if (opts.validate) {
    out(`\nValidation: ${passed} passed, ${failed} failed out of ${passed + failed} lines`);
    if (failed > 0) throw new CliExit(EXIT.failure);
  }
  if (opts.summary) {
    out('\n--- Dataset Summary ---');
    out(`Total cases: ${passed}`);
    out(`By difficulty: easy=${difficulty.easy}, medium=${difficulty.medium}, hard=${difficulty.hard}`);
    out(
      `By output type: exact=${outputType.exact}, regex=${outputType.regex}, jsonpath=${outputType.jsonpath}`,
    );
    out(
      `By source type: hand_written=${sourceType.hand_written}, synthetic=${sourceType.synthetic}, adversarial=${sourceType.adversarial}`,
    );
    out(`Unique tags: ${[...tags].sort().join(', ')}`);
  }
  if (!opts.validate && !opts.summary) out(`Loaded ${passed} cases from ${file}`);
  if (!opts.validate && failed > 0)
    io.stderr.write(
      `harnesseval: warning: ${failed} invalid record(s) skipped; run with --validate to see them\n`,
    );
}
