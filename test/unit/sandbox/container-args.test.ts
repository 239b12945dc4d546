import { describe, expect, it } from 'vitest';
import {
  containerBuildArgs,
  containerCopyInArgs,
  containerCopyOutArgs,
  containerExecArgs,
  containerRemoveArgs,
  containerRunArgs,
} from '../../../src/sandbox/container-args.ts';

describe('container command lines (docker and podman take the same)', () => {
  const plan = {
    name: 'harnesseval-abc',
    image: 'python:3.12-slim',
    mounts: [
      { host: '/tmp/ws', target: '/app', writable: true },
      { host: '/tmp/logs', target: '/logs', writable: true },
      { host: '/opt/tools', target: '/opt/tools', writable: false },
    ],
    network: 'none' as const,
    workdir: '/app',
  };

  it('runs a detached, init-reaped container with no network, the volumes and an idle entrypoint', () => {
    expect(containerRunArgs(plan)).toEqual([
      'run',
      '--detach',
      '--init',
      '--name',
      'harnesseval-abc',
      '--network',
      'none',
      '--volume',
      '/tmp/ws:/app',
      '--volume',
      '/tmp/logs:/logs',
      '--volume',
      '/opt/tools:/opt/tools:ro',
      '--workdir',
      '/app',
      '--entrypoint',
      'sleep',
      'python:3.12-slim',
      'infinity',
    ]);
  });

  it('maps loopback to no network (the bridge does the rest), host to host, and the limits', () => {
    const loopback = containerRunArgs({ ...plan, network: 'loopback', memoryMb: 512, cpuSeconds: 60 });
    expect(loopback.join(' ')).toContain('--network none --memory 512m --ulimit cpu=60');
    expect(containerRunArgs({ ...plan, network: 'host' }).join(' ')).toContain('--network host');
  });

  it('executes with environment names only, never their values', () => {
    expect(containerExecArgs('c1', ['bash', '/tests/test.sh'], '/app', ['API_KEY', 'HOME'])).toEqual([
      'exec',
      '--interactive',
      '--workdir',
      '/app',
      '--env',
      'API_KEY',
      '--env',
      'HOME',
      'c1',
      'bash',
      '/tests/test.sh',
    ]);
  });

  it('copies folders by content, files as they are, and removes by force', () => {
    expect(containerCopyInArgs('c1', '/task/tests', '/tests', true)).toEqual([
      'cp',
      '/task/tests/.',
      'c1:/tests',
    ]);
    expect(containerCopyInArgs('c1', '/task/a.txt', '/a.txt', false)).toEqual([
      'cp',
      '/task/a.txt',
      'c1:/a.txt',
    ]);
    expect(containerCopyOutArgs('c1', '/logs/verifier', '/tmp/v')).toEqual([
      'cp',
      'c1:/logs/verifier',
      '/tmp/v',
    ]);
    expect(containerRemoveArgs('c1')).toEqual(['rm', '--force', 'c1']);
    expect(containerBuildArgs('t', '/task/environment')).toEqual([
      'build',
      '--tag',
      't',
      '/task/environment',
    ]);
  });
});
