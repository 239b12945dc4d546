import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable called `name` on PATH. */
export function findExecutable(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
