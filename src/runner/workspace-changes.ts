import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

const SKIP = new Set(['node_modules', '.git']);

async function listFiles(root: string, dir = root, out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(root, full, out);
    else if (entry.isFile()) out.push(relative(root, full));
  }
  return out;
}

async function digest(path: string): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * What the harness changed in a workspace, for a judge or a human grader: added, changed and
 * removed files, with the text of added and changed files up to `maxBytes` in all.
 */
export async function describeWorkspaceChanges(
  codebase: string,
  workspace: string,
  maxBytes = 60_000,
): Promise<string> {
  const [before, after] = await Promise.all([listFiles(codebase), listFiles(workspace)]);
  const beforeSet = new Set(before);
  const lines: string[] = [];
  let budget = maxBytes;
  for (const file of after.sort()) {
    const status = !beforeSet.has(file)
      ? 'added'
      : (await digest(join(codebase, file))) !== (await digest(join(workspace, file)))
        ? 'changed'
        : undefined;
    if (status === undefined) continue;
    const size = (await stat(join(workspace, file))).size;
    if (budget <= 0 || size > budget) {
      lines.push(`--- ${status}: ${file} (${size} bytes, not shown)`);
      continue;
    }
    const text = await readFile(join(workspace, file), 'utf8');
    budget -= size;
    lines.push(`--- ${status}: ${file}\n${text}`);
  }
  const afterSet = new Set(after);
  for (const file of before.filter((f) => !afterSet.has(f)).sort()) lines.push(`--- removed: ${file}`);
  return lines.length === 0 ? '(no files changed)' : lines.join('\n');
}
