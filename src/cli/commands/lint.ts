import { Option } from 'commander';
import { type CliIO, invocationPlugins } from '../io.ts';
import type { RegisterCommand } from './index.ts';

const EXAMPLES = `
Examples:
  $ harnesseval lint examples/hello-world/datasets/hello-world-v0.jsonl
  $ harnesseval lint suites/product-dev/suite.yaml --strict
  $ harnesseval lint cases.jsonl --format json

Rules: duplicate-id (error), regex-catastrophic (error), missing-tags, schema-version-drift,
duplicate-prompt, zero-weight (warnings); a file that does not validate reports "invalid" errors.
Exit status: 0 clean, 1 any error (or any warning with --strict), 2 wrong usage.`;

export const register: RegisterCommand = (program, io) => {
  program
    .command('lint')
    .description(
      'check datasets and suites for hygiene problems (duplicate ids, missing tags, unsafe regexes, ...)',
    )
    .argument('<files...>', 'files to lint')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--strict', 'fail on warnings too')
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], opts: { format: string; strict?: boolean }) => runLint(io, files, opts));
};

async function runLint(
  io: CliIO,
  files: string[],
  opts: { format: string; strict?: boolean },
): Promise<void> {
  const [{ lintFile }, { formatDiagnostic }, { HarnessEvalError }, { CliExit, EXIT }] = await Promise.all([
    import('../../formats/lint.ts'),
    import('../../core/diagnostic.ts'),
    import('../../core/errors.ts'),
    import('../exit.ts'),
  ]);
  let errors = 0;
  let warnings = 0;
  const results = [];
  for (const file of files) {
    let diagnostics: Awaited<ReturnType<typeof lintFile>>;
    try {
      diagnostics = await lintFile(file, { plugins: await invocationPlugins(io) });
    } catch (error) {
      if (!HarnessEvalError.is(error) || error.code === 'internal') throw error;
      diagnostics = [{ file, line: 0, col: 0, path: '', message: error.message, severity: 'error' }];
    }
    for (const d of diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      if (opts.format !== 'json') io.stdout.write(`${formatDiagnostic(d)}\n`);
    }
    results.push({ file, diagnostics });
  }
  const failed = errors > 0 || (opts.strict === true && warnings > 0);
  if (opts.format === 'json')
    io.stdout.write(`${JSON.stringify({ ok: !failed, errors, warnings, files: results }, null, 2)}\n`);
  else io.stdout.write(`${files.length} file(s): ${errors} error(s), ${warnings} warning(s)\n`);
  if (failed) throw new CliExit(EXIT.failure);
}
