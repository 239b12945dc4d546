#!/usr/bin/env node
// The service's health check: starts the current release on a free port, expects 200
// {status: "ok"} from /healthz within 10 s, stops it. Exit 0 healthy, 1 not.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const start = join(dirname(fileURLToPath(import.meta.url)), 'start.mjs');
const child = spawn(process.execPath, [start], { env: { ...process.env, PORT: '0' } });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));

function finish(healthy, message) {
  child.kill('SIGTERM');
  process.stdout.write(`${healthy ? 'healthy' : 'UNHEALTHY'}: ${message}\n`);
  process.exit(healthy ? 0 : 1);
}

const timer = setTimeout(() => finish(false, 'no answer within 10 s'), 10_000);
child.on('exit', (code) => finish(false, `the service exited (${code}): ${stderr.trim().split('\n')[0]}`));
child.stdout.on('data', async (chunk) => {
  const port = /listening on (\d+)/.exec(String(chunk))?.[1];
  if (port === undefined) return;
  child.removeAllListeners('exit');
  clearTimeout(timer);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    const body = await res.json();
    if (res.status === 200 && body.status === 'ok') finish(true, `${body.version} answers`);
    else finish(false, `/healthz answered ${res.status}`);
  } catch (error) {
    finish(false, `/healthz failed: ${error.message}`);
  }
});
