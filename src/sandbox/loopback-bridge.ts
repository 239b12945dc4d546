import { writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { BRIDGE_DIR } from './bwrap-args.ts';

/**
 * `network: loopback`. The sandbox has its own network namespace with only a loopback device, so
 * nothing of the host answers there. For each forwarded port the host listens on a unix socket in
 * the bridge folder (bind-mounted inside) and connects each connection to 127.0.0.1:PORT; inside,
 * a tiny forwarder listens on 127.0.0.1:PORT and connects to that socket, so a harness keeps
 * using `http://127.0.0.1:PORT` (the model gateway's URL) and reaches that port and nothing else.
 */
export class LoopbackBridge {
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly dir: string,
    readonly ports: readonly number[],
  ) {}

  static async open(dir: string, ports: readonly number[]): Promise<LoopbackBridge> {
    const bridge = new LoopbackBridge(dir, ports);
    await writeFile(join(dir, FORWARDER_FILE), FORWARDER_SOURCE, { mode: 0o444 });
    for (const port of ports) await bridge.listen(port);
    return bridge;
  }

  private listen(port: number): Promise<void> {
    const server = createServer((inside) => {
      const outside = createConnection({ host: '127.0.0.1', port });
      this.track(inside);
      this.track(outside);
      inside.pipe(outside);
      outside.pipe(inside);
      inside.on('error', () => outside.destroy());
      outside.on('error', () => inside.destroy());
    });
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(join(this.dir, `${port}.sock`), () => resolve());
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** The prefix that starts the forwarder inside before the command (`node forwarder PORT=SOCK… --`). */
  prefix(node: string): string[] {
    const pairs = this.ports.map((port) => `${port}=${BRIDGE_DIR}/${port}.sock`);
    return [node, `${BRIDGE_DIR}/${FORWARDER_FILE}`, ...pairs, '--'];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

const FORWARDER_FILE = 'forwarder.mjs';

/**
 * Runs inside the sandbox: listens on 127.0.0.1:PORT for each PORT=SOCKET pair, then runs the
 * command with its stdio, passes on termination signals and exits with the command's status.
 * Plain JavaScript with no imports outside Node, written into the bridge folder at prepare time.
 */
const FORWARDER_SOURCE = `import { spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { constants } from 'node:os';
const sep = process.argv.indexOf('--');
const pairs = process.argv.slice(2, sep).map((p) => p.split('='));
const argv = process.argv.slice(sep + 1);
let listening = 0;
const start = () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => {
    process.stderr.write('harnesseval sandbox: cannot start ' + argv[0] + ': ' + e.message + '\\n');
    process.exit(127);
  });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
};
for (const [port, socket] of pairs) {
  const server = createServer((inside) => {
    const outside = createConnection(socket);
    inside.pipe(outside);
    outside.pipe(inside);
    inside.on('error', () => outside.destroy());
    outside.on('error', () => inside.destroy());
  });
  server.on('error', (e) => {
    process.stderr.write('harnesseval sandbox: cannot listen on 127.0.0.1:' + port + ': ' + e.message + '\\n');
    process.exit(125);
  });
  server.listen(Number(port), '127.0.0.1', () => {
    server.unref();
    if (++listening === pairs.length) start();
  });
}
if (pairs.length === 0) start();
`;
