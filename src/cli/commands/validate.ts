import { Option } from 'commander';
import { FILE_KINDS, hasDocumentExtension } from '../../formats/detect.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import type { RegisterCommand } from './index.ts';

const NOUN: Record<string, string> = {
  'eval-case-v0': 'cases',
  benchmark: 'tests',
  suite: 'tasks',
  'task-spec': 'task',
  rubric: 'dimensions',
  harness: 'adapter config',
  harbor: 'tasks',
};

const EXAMPLES = `
Examples:
  $ harnesseval validate examples/hello-world/datasets/hello-world-v0.jsonl
  $ harnesseval validate suites/product-dev/suite.yaml benchmarks/support.yaml
  $ harnesseval validate cases.jsonl --format json
  $ harnesseval validate my-harness.yaml --as harness
  $ harnesseval validate suites/harbor-examples --oracle    # each task's solution must pass its tests

Exit status: 0 all valid, 1 invalid content or a missing file, 2 wrong usage.`;

export const register: RegisterCommand = (program, io) => {
  program
    .command('validate')
    .description(
      'check input files (v0 JSONL, benchmark, suite, task spec, rubric, harness config, model script, Harbor task folders)',
    )
    .argument('<files...>', 'files to validate')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(
      new Option('--as <kind>', 'read every file as this kind instead of detecting it').choices([
        ...FILE_KINDS,
      ]),
    )
    .option(
      '--oracle',
      "also run each task's own solution (Harbor's oracle) in a sandbox; report tasks it fails",
    )
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], opts: { format: string; as?: string; oracle?: boolean }) =>
      runValidate(io, files, opts),
    );
};

async function runValidate(
  io: CliIO,
  files: string[],
  opts: { format: string; as?: string; oracle?: boolean },
): Promise<void> {
  const [{ validateFile }, { isFileKind }, { formatDiagnostic }, { HarnessEvalError }, { CliExit, EXIT }] =
    await Promise.all([
      import('../../formats/load.ts'),
      import('../../formats/detect.ts'),
      import('../../core/diagnostic.ts'),
      import('../../core/errors.ts'),
      import('../exit.ts'),
    ]);
  const format = opts.as !== undefined && isFileKind(opts.as) ? opts.as : undefined;
  // A dataset needs no registry: the set (every built-in evaluator, adapter, metric, reporter) is
  // made only for a file that can name plugins, or already exists (`--plugin`).
  const plugins = io.plugins ?? (files.some(hasDocumentExtension) ? await invocationPlugins(io) : undefined);
  const reports = [];
  let failed = false;
  for (const file of files) {
    try {
      const report = await validateFile(file, {
        ...(format === undefined ? {} : { format }),
        ...(plugins === undefined ? {} : { plugins }),
      });
      const ok = report.diagnostics.length === 0;
      failed ||= !ok;
      reports.push({
        file,
        kind: report.kind ?? null,
        ok,
        count: report.count,
        diagnostics: report.diagnostics,
      });
      if (opts.format === 'json') continue;
      if (ok)
        io.stdout.write(
          `OK ${file}: ${report.count} ${NOUN[report.kind ?? ''] ?? 'items'} (${report.kind})\n`,
        );
      else {
        for (const d of report.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
        io.stdout.write(`FAIL ${file}: ${report.diagnostics.length} error(s)\n`);
      }
    } catch (error) {
      if (!HarnessEvalError.is(error) || error.code === 'internal') throw error;
      failed = true;
      const d = { file, line: 0, col: 0, path: '', message: error.message, severity: 'error' as const };
      reports.push({ file, kind: null, ok: false, count: 0, diagnostics: [d] });
      if (opts.format !== 'json') io.stderr.write(`harnesseval: ${error.message}\n`);
    }
  }
  if (opts.oracle === true && !failed) {
    const { oracleCheck } = await import('./validate-oracle.ts');
    for (const report of reports) {
      const failures = await oracleCheck(io, report.file);
      Object.assign(report, { oracle: failures });
      failed ||= failures.length > 0;
      if (opts.format === 'json') continue;
      for (const f of failures) io.stderr.write(`${f.file}: oracle failed task ${f.task}: ${f.reason}\n`);
      io.stdout.write(
        failures.length === 0
          ? `ORACLE OK ${report.file}\n`
          : `ORACLE FAIL ${report.file}: ${failures.length} task(s)\n`,
      );
    }
  }
  if (opts.format === 'json')
    io.stdout.write(`${JSON.stringify({ ok: !failed, files: reports }, null, 2)}\n`);
  if (failed) throw new CliExit(EXIT.failure);
}
