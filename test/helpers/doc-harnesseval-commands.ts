/**
 * The `harnesseval` commands of a Markdown page's ```bash blocks, as argv (after `harnesseval`),
 * block by block, so a test can run exactly what the page tells a reader to type. Continuation
 * lines (`\`) are joined; a `for v in A B; do … done` loop gives one command per value with `$v`
 * filled in; lines that are not `npx harnesseval …` (installs, comments) are left out. The
 * commands hold no quotes, so words are split on whitespace.
 */
export function docCommands(markdown: string): string[][][] {
  const blocks = [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  return blocks.map((block) => commandsOf(block.replace(/\\\n\s*/g, ' ')));
}

function commandsOf(block: string): string[][] {
  const commands: string[][] = [];
  const lines = block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
  for (let i = 0; i < lines.length; i++) {
    const loop = /^for (\w+) in ([^;]+); do$/.exec(lines[i] ?? '');
    if (loop === null) {
      commands.push(...harnesseval(lines[i] ?? ''));
      continue;
    }
    const end = lines.indexOf('done', i);
    if (end < 0) throw new Error(`a for loop without done: ${lines[i]}`);
    const body = lines.slice(i + 1, end);
    for (const value of (loop[2] ?? '').trim().split(/\s+/))
      for (const line of body) commands.push(...harnesseval(line.replaceAll(`$${loop[1]}`, value)));
    i = end;
  }
  return commands;
}

function harnesseval(line: string): string[][] {
  const words = line.split(/\s+/).filter((w) => w !== '');
  return words[0] === 'npx' && words[1] === 'harnesseval' ? [words.slice(2)] : [];
}
