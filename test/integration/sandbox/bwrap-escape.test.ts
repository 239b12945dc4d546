import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, sandboxAvailability } from '../../../src/sandbox/registry.ts';
import type { SandboxSpec, SandboxV1 } from '../../../src/sandbox/types.ts';
import { waitFor } from '../../helpers/run-cli.ts';

// CI installs bubblewrap (.ci/run); elsewhere the reason is printed, never a silent skip.
const available = await sandboxAvailability('bwrap');
if (!available.ok) console.warn(`bwrap escape tests skipped: ${available.reason}`);

const node = process.execPath;

async function listen(body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Whether a process whose command line holds `marker` runs anywhere on this machine. */
function processWith(marker: string): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(marker) && !/\) Z /.test(stat)) return true;
    } catch {
      // gone
    }
  }
  return false;
}

describe.skipIf(!available.ok)('bwrap sandbox: a harness cannot escape', () => {
  let root: string;
  let workspace: string;
  let tests: string;
  const open: SandboxV1[] = [];

  async function sandbox(spec: Partial<SandboxSpec> = {}): Promise<SandboxV1> {
    const box = await createSandbox('bwrap', {
      workspace: { host: workspace, target: '/app' },
      network: 'none',
      readOnly: [node],
      ...spec,
    });
    await box.prepare();
    open.push(box);
    return box;
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'he-bwrap-test-'));
    workspace = join(root, 'workspace');
    tests = join(root, 'task', 'tests');
    await mkdir(workspace, { recursive: true });
    await mkdir(tests, { recursive: true });
    await writeFile(join(tests, 'test.sh'), '#!/bin/sh\necho secret-expected-answer\n');
  });

  afterAll(async () => {
    for (const box of open) await box.destroy();
    await rm(root, { recursive: true, force: true });
  });

  it('writes land in the workspace and nowhere else on the host', async () => {
    const box = await sandbox();
    const outside = join(root, 'outside.txt');
    const script = [
      'echo inside > /app/made.txt',
      `echo escaped > ${outside} 2>/dev/null; echo escaped > /usr/escaped 2>/dev/null; echo escaped > /etc/escaped 2>/dev/null`,
      'echo tmp > /tmp/private.txt',
      'true',
    ].join('\n');
    const run = await box.exec({ argv: ['/bin/sh', '-c', script], timeoutMs: 20_000 });
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(workspace, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(outside)).toBe(false);
    expect(existsSync('/usr/escaped')).toBe(false);
    expect(existsSync('/etc/escaped')).toBe(false);
    expect(existsSync('/tmp/private.txt')).toBe(false);
  });

  it('cannot read the acceptance tests until they are copied in after the agent', async () => {
    const box = await sandbox();
    const before = await box.exec({ argv: ['/bin/cat', join(tests, 'test.sh')], timeoutMs: 20_000 });
    expect(before.exitCode).not.toBe(0);
    expect(before.outputTail).not.toContain('secret-expected-answer');
    const tree = await box.exec({ argv: ['/bin/ls', '/'], timeoutMs: 20_000 });
    expect(tree.outputTail).not.toMatch(/\btests\b/);
    await box.copyIn(tests, '/tests');
    const after = await box.exec({ argv: ['/bin/cat', '/tests/test.sh'], timeoutMs: 20_000 });
    expect(after.exitCode).toBe(0);
    expect(after.outputTail).toContain('secret-expected-answer');
  });

  it('with network none it cannot open a TCP connection to a 127.0.0.1 server outside', async () => {
    const { server, port } = await listen('outside');
    try {
      const probe = `require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(3)})`;
      const none = await (await sandbox()).exec({ argv: [node, '-e', probe], timeoutMs: 20_000 });
      expect(none.exitCode).toBe(3);
      expect(none.outputTail).toContain('ECONNREFUSED');
      // The same probe with the host's network connects: the test above can fail.
      const host = await (await sandbox({ network: 'host' })).exec({
        argv: [node, '-e', probe],
        timeoutMs: 20_000,
      });
      expect(host.exitCode).toBe(0);
    } finally {
      server.close();
    }
  });

  it('with network loopback reaches the forwarded gateway port and no other', async () => {
    const gateway = await listen('gateway-says-hi');
    const other = await listen('other');
    try {
      const box = await sandbox({ network: 'loopback', forwardPorts: [gateway.port] });
      const fetchBoth = `(async()=>{for(const p of [${gateway.port},${other.port}]){try{const r=await fetch('http://127.0.0.1:'+p+'/v1/messages');console.log(p,await r.text())}catch(e){console.log(p,'refused',e.cause?.code)}}})()`;
      const run = await box.exec({ argv: [node, '-e', fetchBoth], timeoutMs: 20_000 });
      expect(run.exitCode).toBe(0);
      expect(run.outputTail).toContain(`${gateway.port} gateway-says-hi`);
      expect(run.outputTail).toContain(`${other.port} refused ECONNREFUSED`);
    } finally {
      gateway.server.close();
      other.server.close();
    }
  });

  it('leaves no process behind after a timeout', async () => {
    const box = await sandbox();
    const marker = `98${Date.now() % 100000}.5`;
    const pending = box.exec({
      argv: [
        '/bin/sh',
        '-c',
        `sleep ${marker} & sleep ${marker} & (sleep ${marker}; true) & sleep ${marker}`,
      ],
      timeoutMs: 1500,
    });
    // The probe sees them while they run, so its "none left" below means something.
    await waitFor(() => processWith(marker), 1400);
    const run = await pending;
    expect(run.timedOut).toBe(true);
    expect(processWith(marker)).toBe(false);
  });

  it('enforces a memory limit', async () => {
    const allocate = `const b=Buffer.alloc(300*1024*1024);b.fill(1);console.log('allocated')`;
    const small = await (await sandbox({ memoryMb: 150 })).exec({
      argv: [node, '-e', allocate],
      timeoutMs: 20_000,
    });
    expect(small.exitCode).not.toBe(0);
    expect(small.outputTail).toMatch(/allocation failed|out of memory/i);
    // RLIMIT_DATA counts reservations: Node 24 reserves ~550 MB at start-up (Node 20 < 300 MB).
    const large = await (await sandbox({ memoryMb: 1500 })).exec({
      argv: [node, '-e', allocate],
      timeoutMs: 20_000,
    });
    expect(large.exitCode).toBe(0);
  });

  it('copies files out of the sandbox', async () => {
    const box = await sandbox({ mounts: [{ host: join(root, 'logs'), target: '/logs', writable: true }] });
    await mkdir(join(root, 'logs', 'verifier'), { recursive: true });
    await box.exec({ argv: ['/bin/sh', '-c', 'echo 0.75 > /logs/verifier/reward.txt'], timeoutMs: 20_000 });
    const out = join(root, 'copied', 'reward.txt');
    await box.copyOut('/logs/verifier/reward.txt', out);
    expect(await readFile(out, 'utf8')).toBe('0.75\n');
    await expect(box.copyOut('/nowhere/file', join(root, 'x'))).rejects.toThrow(/nothing at \/nowhere/);
  });
});
