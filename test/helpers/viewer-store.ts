import { join } from 'node:path';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { agentOutput } from '../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { openStore } from '../../src/store/index.ts';
import { demoExperiment, trial, XSS_IMG, XSS_SCRIPT } from './experiment-fixture.ts';
import { ROOT, type RunningCli, startCli, waitFor } from './run-cli.ts';

/** Agent text that tries every way out of an HTML page. */
export const XSS_LINK = 'javascript:window.__pwned=1';
export const XSS_OUTPUT = `${XSS_SCRIPT} </script><script>window.__pwned=2</script> ${XSS_IMG} <a href="${XSS_LINK}">x</a>`;

/** gamma #0's change: short and whole (shown open), with agent text that tries to be markup. */
export const SMALL_DIFF = {
  files: [{ path: 'src/gamma.ts', status: 'changed' as const }],
  diff: `--- a/src/gamma.ts\n+++ b/src/gamma.ts\n@@ -1 +1 @@\n-export const x = 1;\n+export const x = '${XSS_SCRIPT}';\n`,
  omitted_bytes: 0,
};
/** gamma #1's change: 30,000 lines, of which the run already left 1,234 bytes out. */
export const LARGE_DIFF = {
  files: [{ path: 'big.txt', status: 'added' as const }],
  diff: `--- /dev/null\n+++ b/big.txt\n${Array.from({ length: 30_000 }, (_, i) => `+line ${i}`).join('\n')}\n`,
  omitted_bytes: 1234,
};

export interface ViewerStore {
  readonly path: string;
  /** v1.2.0 and v1.3.0 of demo-harness on demo-suite: beta flips fail → pass. */
  readonly baselineId: string;
  readonly candidateId: string;
  /** A run of the grade fixture suite whose rubric criterion waits for a human. */
  readonly pendingId: string;
}

/** A SQLite store with a lineage of two versions (agent output that tries XSS) and a run to grade. */
export async function viewerStore(dir: string): Promise<ViewerStore> {
  const path = join(dir, 'store.db');
  const store = await openStore(path);
  const baseline = demoExperiment({ name: `Demo ${XSS_SCRIPT}` });
  const candidate = demoExperiment({
    id: 'exp-demo-2',
    harness: { name: 'demo-harness', version: '1.3.0', adapter: 'function' },
    created_at: '2026-11-30T12:00:00Z',
    finished_at: '2026-11-30T12:05:00Z',
    records: [
      trial({ task: 'alpha', outcome: 'pass', score: 0.9, output: XSS_OUTPUT }),
      trial({ task: 'alpha', epoch: 1, outcome: 'pass', score: 0.9 }),
      trial({ task: 'beta', outcome: 'pass', score: 0.8 }),
      trial({ task: 'beta', epoch: 1, outcome: 'pass', score: 0.8 }),
      { ...trial({ task: 'gamma', outcome: 'pass', score: 0.7 }), workspace_diff: SMALL_DIFF },
      { ...trial({ task: 'gamma', epoch: 1, outcome: 'pass', score: 0.7 }), workspace_diff: LARGE_DIFF },
    ],
  });
  await store.createExperiment(baseline);
  await store.createExperiment(candidate);
  const agent: AgentV1 = {
    specificationVersion: 'v1',
    name: 'noop',
    run: async () => agentOutput({ output: `I kept index.js as it was. ${XSS_OUTPUT}` }),
  };
  const pending = await runExperiment({
    suite: await loadSuite(join(ROOT, 'test/fixtures/grade/suite.yaml')),
    harness: HarnessConfigSchema.parse({ name: 'noop', version: '1', adapter: 'in-process' }),
    agent,
    store,
  });
  await store.close();
  return { path, baselineId: baseline.id, candidateId: candidate.id, pendingId: pending.id };
}

export interface ViewerProcess {
  readonly cli: RunningCli;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The printed URL with its token. */
  readonly url: string;
  readonly token: string;
  stop(): Promise<void>;
}

/** `harnesseval view --store PATH --port 0` as a subprocess, once it has printed its URL. */
export async function startViewerCli(
  storePath: string,
  extra: readonly string[] = [],
): Promise<ViewerProcess> {
  const cli = startCli(['view', '--store', storePath, '--port', '0', ...extra]);
  let stdout = '';
  cli.child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await waitFor(() => /open (http:\S+)/.test(stdout) || cli.child.exitCode !== null, 20_000);
  const match = /open (http:\S+)/.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`view did not print its URL: ${stdout} ${cli.stderr()}`);
  const url = new URL(match[1]);
  return {
    cli,
    origin: url.origin,
    url: url.href,
    token: url.searchParams.get('token') ?? '',
    stop: async () => {
      cli.child.kill('SIGTERM');
      await cli.done;
    },
  };
}
