import { describe, expect, it } from 'vitest';
import { bwrapArgs, limitPrefix, SANDBOX_HOME } from '../../../src/sandbox/bwrap-args.ts';
import { hostPath, insidePath } from '../../../src/sandbox/paths.ts';

const system = new Map([
  ['/usr', { kind: 'dir' as const }],
  ['/bin', { kind: 'symlink' as const, to: 'usr/bin' }],
]);

describe('bwrapArgs', () => {
  const plan = {
    system,
    readOnly: ['/opt/tools/agent.sh'],
    mounts: [
      { host: '/tmp/ws', target: '/app', writable: true },
      { host: '/tmp/in/0', target: '/tests', writable: false },
    ],
    network: 'none' as const,
    cwd: '/app',
    prefix: [],
  };

  it('isolates: new namespaces, no capabilities, dies with its parent, no network', () => {
    const args = bwrapArgs(plan, ['node', 'agent.js']);
    for (const flag of [
      '--die-with-parent',
      '--new-session',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
    ])
      expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args.slice(-3)).toEqual(['--', 'node', 'agent.js']);
  });

  it('mounts system folders read-only, re-creates merged-/usr symlinks, binds only the workspace writable', () => {
    const text = bwrapArgs(plan, ['true']).join(' ');
    expect(text).toContain('--ro-bind /usr /usr');
    expect(text).toContain('--symlink usr/bin /bin');
    expect(text).toContain('--tmpfs /tmp');
    expect(text).toContain(`--dir ${SANDBOX_HOME}`);
    expect(text).toContain('--bind /tmp/ws /app');
    expect(text).toContain('--ro-bind /tmp/in/0 /tests');
    expect(text).toContain('--ro-bind /opt/tools/agent.sh /opt/tools/agent.sh');
    expect(text).toContain('--chdir /app');
    expect(text).not.toContain('--bind / ');
  });

  it('keeps the host network only when asked, and runs the prefix before the command', () => {
    const args = bwrapArgs({ ...plan, network: 'host', prefix: ['/usr/bin/prlimit', '--data=1', '--'] }, [
      'x',
    ]);
    expect(args).not.toContain('--unshare-net');
    expect(args.slice(-5)).toEqual(['--', '/usr/bin/prlimit', '--data=1', '--', 'x']);
  });

  it('binds the loopback bridge folder', () => {
    const args = bwrapArgs({ ...plan, network: 'loopback', bridgeDir: '/tmp/sb/bridge' }, ['x']).join(' ');
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--bind /tmp/sb/bridge /run/harnesseval-bridge');
  });
});

describe('limitPrefix', () => {
  it('turns memory and CPU limits into prlimit flags, and nothing into nothing', () => {
    expect(limitPrefix({ memoryMb: 2, cpuSeconds: 30 }, '/usr/bin/prlimit')).toEqual([
      '/usr/bin/prlimit',
      `--data=${2 * 1024 * 1024}`,
      '--cpu=30',
      '--',
    ]);
    expect(limitPrefix({}, '/usr/bin/prlimit')).toEqual([]);
  });
});

describe('sandbox paths', () => {
  const mappings = [
    { host: '/tmp/ws', target: '/app' },
    { host: '/tmp/logs', target: '/logs' },
    { host: '/tmp/logs/verifier-own', target: '/logs/verifier' },
  ];
  it('maps host paths under a mapping inside, the longest match first', () => {
    expect(insidePath(mappings, '/tmp/ws')).toBe('/app');
    expect(insidePath(mappings, '/tmp/ws/src/a.ts')).toBe('/app/src/a.ts');
    expect(insidePath(mappings, '/tmp/logs/verifier-own/r.txt')).toBe('/logs/verifier/r.txt');
    expect(insidePath(mappings, '/tmp/wsx/a')).toBe('/tmp/wsx/a');
  });
  it('maps paths inside back to the host, or to nothing', () => {
    expect(hostPath(mappings, '/logs/verifier/reward.txt')).toBe('/tmp/logs/verifier-own/reward.txt');
    expect(hostPath(mappings, '/logs/agent')).toBe('/tmp/logs/agent');
    expect(hostPath(mappings, '/app')).toBe('/tmp/ws');
    expect(hostPath(mappings, '/etc/passwd')).toBeUndefined();
  });
});
