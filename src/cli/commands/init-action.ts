import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { HarnessEvalError } from '../../core/errors.ts';
import { EXIT } from '../exit.ts';
import type { CliIO } from '../io.ts';
import type { InitFlags } from './init.ts';
import { initFiles } from './init-files.ts';
import { INIT_ADAPTERS, type InitAdapter, type InitAnswers } from './init-harness.ts';

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

function isInitAdapter(value: string): value is InitAdapter {
  return (INIT_ADAPTERS as readonly string[]).includes(value);
}

/** A folder name as a suite name: `My Project` -> `my-project`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
}

function checkName(value: string, flag: string): string {
  if (!NAME.test(value))
    throw new HarnessEvalError('usage', `${flag} "${value}": use lower-case letters, digits and dashes`);
  return value;
}

interface Question {
  readonly prompt: string;
  readonly fallback: string;
  /** The answer, or why it is not acceptable. */
  readonly accept: (answer: string) => { ok: true } | { ok: false; why: string };
}

/** Asks each question on the terminal until the answer is acceptable; Enter takes the default. */
async function askAll(io: CliIO, questions: readonly Question[]): Promise<string[]> {
  const terminal = createInterface({ input: io.stdin ?? process.stdin, output: io.stdout, terminal: true });
  const closed = new Promise<never>((_, reject) =>
    terminal.once('close', () =>
      reject(new HarnessEvalError('usage', 'init was cancelled; nothing was written')),
    ),
  );
  closed.catch(() => {});
  try {
    const answers: string[] = [];
    for (const question of questions) {
      for (;;) {
        const raw = await Promise.race([
          terminal.question(`${question.prompt} [${question.fallback}]: `),
          closed,
        ]);
        const answer = raw.trim() === '' ? question.fallback : raw.trim();
        const verdict = question.accept(answer);
        if (verdict.ok) {
          answers.push(answer);
          break;
        }
        io.stdout.write(`  ${verdict.why}\n`);
      }
    }
    return answers;
  } finally {
    terminal.close();
  }
}

const nameRule = (answer: string) =>
  NAME.test(answer)
    ? { ok: true as const }
    : { ok: false as const, why: 'lower-case letters, digits and dashes' };

async function answersFor(root: string, flags: InitFlags, io: CliIO): Promise<InitAnswers> {
  const defaults = {
    name: flags.name ?? (slug(basename(root)) || 'my-harness'),
    domain: flags.domain ?? 'general',
    adapter: flags.adapter ?? 'function',
    port: flags.port ?? 8787,
  };
  const stdin = io.stdin as (NodeJS.ReadableStream & { isTTY?: boolean }) | undefined;
  const interactive = !flags.yes && stdin?.isTTY === true && io.stdout.isTTY === true;
  if (!interactive) {
    const adapter = defaults.adapter;
    if (!isInitAdapter(adapter)) throw new HarnessEvalError('usage', `--adapter "${adapter}" is not known`);
    return {
      name: checkName(defaults.name, '--name'),
      domain: checkName(defaults.domain, '--domain'),
      adapter,
      port: defaults.port,
    };
  }
  const questions: Question[] = [];
  if (flags.name === undefined)
    questions.push({ prompt: 'Suite name', fallback: defaults.name, accept: nameRule });
  if (flags.domain === undefined)
    questions.push({ prompt: 'Domain', fallback: defaults.domain, accept: nameRule });
  if (flags.adapter === undefined)
    questions.push({
      prompt: `Adapter (${INIT_ADAPTERS.join(', ')})`,
      fallback: defaults.adapter,
      accept: (a) =>
        isInitAdapter(a) ? { ok: true } : { ok: false, why: `one of ${INIT_ADAPTERS.join(', ')}` },
    });
  const given = await askAll(io, questions);
  const pick = (asked: boolean, fallback: string) => (asked ? (given.shift() ?? fallback) : fallback);
  const name = checkName(pick(flags.name === undefined, defaults.name), '--name');
  const domain = checkName(pick(flags.domain === undefined, defaults.domain), '--domain');
  const adapter = pick(flags.adapter === undefined, defaults.adapter);
  if (!isInitAdapter(adapter)) throw new HarnessEvalError('usage', `--adapter "${adapter}" is not known`);
  let port = defaults.port;
  if (adapter === 'http' && flags.port === undefined) {
    const [answer] = await askAll(io, [
      {
        prompt: 'Port of the sample HTTP harness',
        fallback: String(defaults.port),
        accept: (a) =>
          /^\d+$/.test(a) && Number(a) >= 1 && Number(a) <= 65_535
            ? { ok: true }
            : { ok: false, why: 'a whole number from 1 to 65535' },
      },
    ]);
    port = Number(answer);
  }
  return { name, domain, adapter, port };
}

/** `harnesseval init [dir]`: scaffolds a suite, a harness, a CI workflow and a README. */
export async function init(dir: string, flags: InitFlags, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, dir);
  const answers = await answersFor(root, flags, io);
  const files = initFiles(answers);
  const existing = files.filter((file) => existsSync(join(root, file.path)));
  const shown = relative(io.cwd, root) || '.';
  if (existing.length > 0) {
    io.stderr.write(
      `harnesseval: init would overwrite ${existing.length} file(s) in ${shown}; nothing was written:\n` +
        existing.map((file) => `  ${file.path}\n`).join('') +
        'Move them away, or run init in another folder (harnesseval init my-evals).\n',
    );
    return EXIT.failure;
  }
  for (const file of files) {
    const target = join(root, file.path);
    await mkdir(dirname(target), { recursive: true });
    // `wx`: a file that appeared since the check above is still not overwritten.
    await writeFile(target, file.content, { flag: 'wx' });
    if (file.executable === true) await chmod(target, 0o755);
  }
  const prefix = shown === '.' ? '' : `${shown}/`;
  io.stdout.write(
    `Created ${files.length} files in ${shown} (adapter ${answers.adapter}):\n` +
      files.map((file) => `  ${prefix}${file.path}\n`).join('') +
      '\nNext:\n' +
      (answers.adapter === 'http' ? `  node ${prefix}evals/harness/http-agent.mjs &\n` : '') +
      `  npx harnesseval validate ${prefix}evals/suite.yaml ${prefix}evals/harness.yaml\n` +
      `  npx harnesseval run ${prefix}evals/suite.yaml --harness ${prefix}evals/harness.yaml\n` +
      `See ${prefix}evals/README.md.\n`,
  );
  return EXIT.ok;
}
