// What the operations suite's scripted harnesses share: which runbook the workspace holds (its
// first line, `# Runbook: <id>`), and running a command the way an operator types it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function runbookId() {
  const id = /^# Runbook: ([a-z0-9-]+)/.exec(readFileSync('RUNBOOK.md', 'utf8'))?.[1];
  if (id === undefined) {
    process.stderr.write('RUNBOOK.md does not start with "# Runbook: <id>"\n');
    process.exit(2);
  }
  return id;
}

/** Runs argv (no shell) in the workspace; returns its exit status and combined output. */
export function run(argv, options = {}) {
  const [command, ...args] = argv;
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000, ...options });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}
