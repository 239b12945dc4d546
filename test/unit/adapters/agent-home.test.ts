import { chmod, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentHome, SANDBOXED_HOME } from '../../../src/adapters/coding-agent-run.ts';
import type { SubprocessSpec } from '../../../src/adapters/subprocess.ts';
import { BwrapSandbox } from '../../../src/sandbox/bwrap.ts';
import { ContainerSandbox } from '../../../src/sandbox/container.ts';
import { NoSandbox } from '../../../src/sandbox/none.ts';
import type { SandboxV1 } from '../../../src/sandbox/types.ts';
import { trialContext } from './trial-context.ts';

let root: string;
let workspace: string;
const cleanup: (() => Promise<void>)[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'he-agent-home-'));
  workspace = join(root, 'workspace');
  await mkdir(workspace);
});
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
  await rm(root, { recursive: true, force: true });
});

const spec = (command: string, env: Record<string, string> = {}): SubprocessSpec => ({
  command,
  args: ['--flag'],
  cwd: workspace,
  env,
  stdin: '',
});

async function homeIn(sandbox: SandboxV1 | undefined) {
  const ctx = trialContext({ workspace });
  const home = await agentHome('test', sandbox === undefined ? ctx : { ...ctx, sandbox });
  cleanup.push(() => home.remove());
  return home;
}

// No bwrap is run here: the sandbox only builds its command line (no system folders given).
async function bwrap(): Promise<BwrapSandbox> {
  const box = new BwrapSandbox(
    { workspace: { host: workspace, target: '/app' }, network: 'none' },
    { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', node: process.execPath },
    new Map(),
  );
  await box.prepare();
  cleanup.push(() => box.destroy());
  return box;
}

describe('each sandbox backend declares whether a harness sees host paths', () => {
  it('none does; bwrap, docker and podman do not', async () => {
    const none = new NoSandbox({ workspace: { host: workspace, target: workspace }, network: 'none' });
    const docker = new ContainerSandbox('docker', { network: 'none', image: 'x' }, '/usr/bin/docker');
    const podman = new ContainerSandbox('podman', { network: 'none', image: 'x' }, '/usr/bin/podman');
    expect([none, await bwrap(), docker, podman].map((s) => [s.backend, s.seesHostPaths])).toEqual([
      ['none', true],
      ['bwrap', false],
      ['docker', false],
      ['podman', false],
    ]);
  });
});

describe('agentHome follows the sandbox capability', () => {
  it('with no sandbox, or one that sees host paths, the host home is the CLI home and nothing is wrapped', async () => {
    const none = new NoSandbox({ workspace: { host: workspace, target: workspace }, network: 'none' });
    for (const sandbox of [undefined, none]) {
      const home = await homeIn(sandbox);
      expect(home.seen).toBe(home.host);
      await writeFile(join(home.host, 'config.json'), '{}');
      await home.enter();
      expect(home.spawn(spec('claude'))).toEqual(spec('claude'));
      await home.leave();
      expect(await readFile(join(home.host, 'config.json'), 'utf8')).toBe('{}');
    }
  });

  it('in bwrap the home is copied to the private /tmp and back, and the CLI runs wrapped, in the workspace as seen', async () => {
    const box = await bwrap();
    const home = await homeIn(box);
    expect(home.seen).toBe(SANDBOXED_HOME);
    await writeFile(join(home.host, 'settings.json'), '{"a":1}');
    await home.enter();
    const wrapped = home.spawn(spec('/bin/true', { PATH: '/usr/bin' }));
    expect(wrapped.command).toBe('/usr/bin/bwrap');
    const args = wrapped.args.join(' ');
    expect(args).toMatch(new RegExp(`--bind \\S+ ${SANDBOXED_HOME}`));
    expect(args).toMatch(/--chdir \/app -- \S+ --flag$/);
    expect(wrapped.env['HOME']).not.toBe(home.host);
    expect(wrapped.label).toBe('/bin/true');
    // What the CLI wrote into its home inside comes back to the host.
    const inside = wrapped.args[wrapped.args.indexOf(SANDBOXED_HOME) - 1]!;
    await writeFile(join(inside, 'session.jsonl'), 'line\n');
    await home.leave();
    expect(await readFile(join(home.host, 'session.jsonl'), 'utf8')).toBe('line\n');
  });

  it('in bwrap a CLI found through a symlinked PATH folder is started by its real file (the link would dangle inside)', async () => {
    const real = join(root, 'install', 'bin');
    await mkdir(real, { recursive: true });
    await writeFile(join(real, 'agent-cli'), '#!/bin/sh\n');
    await chmod(join(real, 'agent-cli'), 0o755);
    await symlink(join(root, 'install'), join(root, 'linked'));
    const home = await homeIn(await bwrap());
    const wrapped = home.spawn(spec('agent-cli', { PATH: join(root, 'linked', 'bin') }));
    const at = wrapped.args.indexOf('--chdir');
    expect(wrapped.args.slice(at, at + 4)).toEqual([
      '--chdir',
      '/app',
      '--',
      await realpath(join(real, 'agent-cli')),
    ]);
  });

  it('in docker the home goes to the container, and the CLI is started through the engine', async () => {
    const docker = new ContainerSandbox('docker', { network: 'none', image: 'x' }, '/usr/bin/docker');
    const home = await homeIn(docker);
    expect(home.seen).toBe(SANDBOXED_HOME);
    // Not started (no engine here): wrapping asks the container, which says so.
    expect(() => home.spawn(spec('codex'))).toThrow('the container is not running');
  });
});
