/**
 * The shell commands of a Markdown document and the output it shows for them, so a test can run
 * them and hold the document to what they print. The format (docs/contributing.md, "Docs that run"):
 *
 * - In a ```console block, a line `$ CMD` is a command (a trailing `\` continues it on the next
 *   line) and the lines after it, up to the next `$`, are the output it is shown to print.
 * - In a ```bash / ```sh block every line that is not blank or a `#` comment is a command; its
 *   output is not shown, so only its success is checked. A `for v in A B; do … done` loop is its
 *   body once per value, with `$v` filled in.
 * - `<!-- docs-test: skip: REASON -->` right before a block: it is not run (the test says so).
 * - `<!-- docs-test: setup: CMD -->` right before a block: CMD runs first, unseen by readers.
 *
 * Shown output matches when its lines appear in the real output in order, each compared with runs
 * of spaces collapsed. A line that is only `…` stands for any number of lines; `…` inside a line
 * for any text. Experiment ids, dates with times and durations in seconds are taken as whatever
 * the run printed, and an id shown in one command's output stands for the real one in later
 * commands (`runs show exp-20261130-224624` → the id that run really got).
 */
export interface DocCommand {
  readonly file: string;
  /** 1-based line of the `$` (or of the command in a bash block). */
  readonly line: number;
  readonly command: string;
  /** Shown output lines; undefined when the block shows none (bash/sh). */
  readonly expected: readonly string[] | undefined;
}

export interface DocBlock {
  readonly file: string;
  readonly line: number;
  readonly skip?: string;
  readonly setup: readonly string[];
  readonly commands: readonly DocCommand[];
}

const MARKER = /^<!--\s*docs-test:\s*(skip|setup):\s*(.*?)\s*-->$/;
const SHELL_FENCES = new Set(['console', 'bash', 'sh', 'shell']);

export function docBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let markers: { kind: string; value: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const marker = MARKER.exec(line.trim());
    if (marker !== null) {
      markers.push({ kind: marker[1] ?? '', value: marker[2] ?? '' });
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence === null) {
      if (line.trim() !== '') markers = [];
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const language = fence[1] ?? '';
    if (SHELL_FENCES.has(language)) {
      const skip = markers.find((m) => m.kind === 'skip')?.value;
      blocks.push({
        file,
        line: start + 1,
        ...(skip === undefined ? {} : { skip }),
        setup: markers.filter((m) => m.kind === 'setup').map((m) => m.value),
        commands:
          language === 'console'
            ? consoleCommands(file, start + 2, body)
            : scriptCommands(file, start + 2, body),
      });
    }
    markers = [];
  }
  return blocks;
}

function consoleCommands(file: string, firstLine: number, body: readonly string[]): DocCommand[] {
  const commands: DocCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const text = body[i] ?? '';
    if (!text.startsWith('$ ')) continue;
    const line = firstLine + i;
    let command = text.slice(2);
    while (command.endsWith('\\') && i + 1 < body.length)
      command = `${command.slice(0, -1)} ${(body[++i] ?? '').trim()}`;
    const expected: string[] = [];
    while (i + 1 < body.length && !(body[i + 1] ?? '').startsWith('$ ')) expected.push(body[++i] ?? '');
    while (expected.length > 0 && (expected.at(-1) ?? '').trim() === '') expected.pop();
    commands.push({ file, line, command, expected });
  }
  return commands;
}

function scriptCommands(file: string, firstLine: number, body: readonly string[]): DocCommand[] {
  const commands: DocCommand[] = [];
  let loop: { name: string; values: string[]; body: DocCommand[] } | undefined;
  for (let i = 0; i < body.length; i++) {
    const text = (body[i] ?? '').trim();
    if (text === '' || text.startsWith('#')) continue;
    const line = firstLine + i;
    let command = text;
    while (command.endsWith('\\') && i + 1 < body.length)
      command = `${command.slice(0, -1)} ${(body[++i] ?? '').trim()}`;
    // `for v in A B; do … done` stands for its body once per value, `$v` filled in: each is
    // run (and checked) as the reader's shell would run it.
    const head = /^for (\w+) in ([^;]+); do$/.exec(command);
    if (head !== null && loop === undefined) {
      loop = { name: head[1] ?? '', values: (head[2] ?? '').trim().split(/\s+/), body: [] };
      continue;
    }
    if (command === 'done' && loop !== undefined) {
      const { name, values, body: inner } = loop;
      for (const value of values)
        for (const c of inner)
          commands.push({
            ...c,
            command: c.command.replaceAll(`\${${name}}`, value).replaceAll(`$${name}`, value),
          });
      loop = undefined;
      continue;
    }
    (loop?.body ?? commands).push({ file, line, command, expected: undefined });
  }
  if (loop !== undefined) throw new Error(`${file}:${firstLine}: a for loop without done`);
  return commands;
}

/**
 * The words after `npx harnesseval` of a command, as argv (a trailing `# comment` left out), or
 * undefined for any other command (installs, cd). Doc commands that a test runs this way hold no
 * quotes, so words are split on whitespace.
 */
export function harnessevalArgv(command: string): string[] | undefined {
  const words = command
    .replace(/\s+#.*$/, '')
    .split(/\s+/)
    .filter((w) => w !== '');
  return words[0] === 'npx' && words[1] === 'harnesseval' ? words.slice(2) : undefined;
}

/** Each shell block's `npx harnesseval` commands as argv (see `harnessevalArgv`), block by block. */
export function harnessevalCommands(file: string, text: string): string[][][] {
  return docBlocks(file, text).map((b) =>
    b.commands.flatMap((c) => {
      const argv = harnessevalArgv(c.command);
      return argv === undefined ? [] : [argv];
    }),
  );
}

const EXPERIMENT_ID = /exp-\d{8}-\d{6}-[0-9a-f]{4}/g;
const VOLATILE: readonly [RegExp, string][] = [
  [
    /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?/g,
    '\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?',
  ],
  [/\b\d+(?:\.\d+)?(?:e-?\d+)?s\b/g, '\\d+(?:\\.\\d+)?(?:e-?\\d+)?s'],
];

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The regex a shown line stands for, and the doc ids it captures (in order). */
export function linePattern(
  shown: string,
  ids: ReadonlyMap<string, string>,
): { regex: RegExp; captures: string[] } {
  const collapsed = shown.trim().replace(/\s+/g, ' ');
  const captures: string[] = [];
  // Split on the parts that vary, escape the rest.
  const parts: string[] = [];
  let rest = collapsed;
  const tokens = new RegExp(
    [EXPERIMENT_ID.source, ...VOLATILE.map(([r]) => r.source), '…'].map((s) => `(${s})`).join('|'),
    'g',
  );
  let last = 0;
  for (const match of rest.matchAll(tokens)) {
    parts.push(escapeRegex(rest.slice(last, match.index)));
    const [token] = match;
    if (match[1] !== undefined) {
      const known = ids.get(token);
      if (known !== undefined) parts.push(escapeRegex(known));
      else {
        captures.push(token);
        parts.push('(exp-\\d{8}-\\d{6}-[0-9a-f]{4})');
      }
    } else if (token === '…') parts.push('.*');
    else
      parts.push(VOLATILE.find(([r]) => new RegExp(`^${r.source}$`).test(token))?.[1] ?? escapeRegex(token));
    last = (match.index ?? 0) + token.length;
  }
  parts.push(escapeRegex(rest.slice(last)));
  rest = parts.join('');
  return { regex: new RegExp(`^${rest}$`), captures };
}

export interface OutputCheck {
  readonly ok: boolean;
  /** The first shown line not found (in order), when not ok. */
  readonly missing?: string;
}

/**
 * Whether the shown lines appear in the real output in order; records the ids they reveal in
 * `ids` (doc id → real id). A shown `…` line skips any lines; otherwise lines must follow each
 * other, except that lines the doc leaves out between two shown ones are allowed only where a
 * `…` line says so.
 */
export function checkOutput(shown: readonly string[], actual: string, ids: Map<string, string>): OutputCheck {
  const real = actual
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '');
  let at = 0;
  let gap = true; // the shown output may start anywhere (e.g. after progress lines)
  for (const line of shown) {
    if (line.trim() === '') continue;
    if (line.trim() === '…') {
      gap = true;
      continue;
    }
    const { regex, captures } = linePattern(line, ids);
    let found = -1;
    for (let i = at; i < real.length; i++) {
      if (regex.test(real[i] ?? '')) {
        found = i;
        break;
      }
      if (!gap) break;
    }
    if (found === -1) return { ok: false, missing: line };
    const groups = regex.exec(real[found] ?? '')?.slice(1) ?? [];
    captures.forEach((docId, k) => {
      const realId = groups[k];
      if (realId !== undefined && !ids.has(docId)) ids.set(docId, realId);
    });
    at = found + 1;
    gap = false;
  }
  return { ok: true };
}

/** The command with doc ids (and unique prefixes of them) replaced by the real ones. */
export function withRealIds(
  command: string,
  ids: ReadonlyMap<string, string>,
  latest: string | undefined,
): string {
  let out = command.replaceAll('<experiment-id>', latest ?? '<experiment-id>');
  for (const [docId, realId] of ids) {
    out = out.replace(
      new RegExp(`${escapeRegex(docId)}|${escapeRegex(docId.slice(0, 19))}[\\w-]*`, 'g'),
      realId,
    );
  }
  // An id no output has shown yet (`report exp-20261201-084403-b363` in a reference page) stands
  // for the latest experiment, as `<experiment-id>` does.
  if (latest === undefined) return out;
  const real = new Set(ids.values());
  return out.replace(/\bexp-\d{8}-\d{4,6}(?:-[0-9a-f]{4})?\b/g, (id) => (real.has(id) ? id : latest));
}

/**
 * When a block may run: `free` ones touch neither the store nor files other blocks write, so
 * they run alongside the rest; `ordered` ones read what earlier blocks left (the store, `out/`, an
 * id) and run in document order; `last` ones only add experiments after the last reader, so
 * they run together once the ordered ones are done. The docs test stays fast on 2 cores that way.
 */
export type BlockOrder = 'free' | 'ordered' | 'last';

const CLI = /\b(?:npx\s+)?harnesseval\b/;
const WRITES_STORE = /\bharnesseval\b(?:\s+--?\S+(?:\s+[^-\s]\S*)?)*\s+run\b(?!.*--no-store)/;
const READS_STATE =
  /\bharnesseval\b.*\b(?:runs|report|compare|timeline|grade|power)\b|exp-\d{8}-\d{4}|<experiment-id>|\bout\//;

export function blockOrders(blocks: readonly DocBlock[]): BlockOrder[] {
  const commands = (b: DocBlock) => [...b.setup, ...b.commands.map((c) => c.command)];
  const reads = blocks.map((b) => b.skip === undefined && commands(b).some((c) => READS_STATE.test(c)));
  const writes = blocks.map(
    (b) => b.skip === undefined && commands(b).some((c) => CLI.test(c) && WRITES_STORE.test(c)),
  );
  const lastReader = reads.lastIndexOf(true);
  return blocks.map((_, i) => {
    if (reads[i]) return 'ordered';
    if (!writes[i]) return 'free';
    return i < lastReader ? 'ordered' : 'last';
  });
}
