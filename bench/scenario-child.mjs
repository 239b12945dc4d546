// One bench scenario in a fresh Node process, so its peak RSS and CPU are its own: `script --child
// JSON` prints one JSON line of measurements (bench/run.mjs, bench/resume.mjs).
import { spawn } from 'node:child_process';

/** Runs `script --child JSON.stringify(scenario)` and resolves with the JSON line it printed. */
export function runChild(script, scenario) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [script, '--child', JSON.stringify(scenario)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (c) => {
      out += c;
    });
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`scenario exited ${code}`)),
    );
  });
}

/** The text of a benchmark file of `count` echo tests (`input` = `expected`). */
export function echoSuite(name, count) {
  const tests = Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    input: `hello ${i}`,
    expected: `hello ${i}`,
  }));
  return JSON.stringify({ version: '1.0', name, tests });
}
