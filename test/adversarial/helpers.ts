import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from '../helpers/run-cli.ts';

/** The in-process harness that answers with hostile data (`kind:n` inputs). */
export const HOSTILE_AGENT = join(ROOT, 'test/fixtures/adversarial/hostile-agent.mjs');

/** A scratch folder removed by the returned function. */
export async function scratch(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `harnesseval-adv-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface BenchmarkTest {
  readonly id: string;
  readonly input: string | Record<string, unknown>;
  readonly expected?: unknown;
  readonly evaluators?: readonly { name: string; options?: Record<string, unknown> }[] | undefined;
  readonly timeout?: number;
}

/** Writes a seed-000 benchmark whose agent is `agent` (the hostile one by default); returns its path. */
export async function writeBenchmark(
  dir: string,
  name: string,
  tests: readonly BenchmarkTest[],
  agent: Record<string, unknown> = { adapter: 'function', module: `${HOSTILE_AGENT}#hostile` },
  extra: Record<string, unknown> = {},
): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, stringify({ version: '1.0', name, agent, ...extra, tests }));
  return file;
}

/** mulberry32: the seeded generator every randomised adversarial test draws from. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stack trace in CLI output: never acceptable without --debug. */
export const STACK_TRACE = /\n\s+at .+:\d+:\d+\)?/;
