import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isObject, jobs, loadWorkflow, steps } from './support.ts';

const index = (list: Record<string, unknown>[], match: (step: Record<string, unknown>) => boolean) =>
  list.findIndex(match);
const uses = (name: string) => (step: Record<string, unknown>) =>
  typeof step.uses === 'string' && step.uses.startsWith(`${name}@`);
const runs = (command: RegExp) => (step: Record<string, unknown>) =>
  typeof step.run === 'string' && command.test(step.run);

test('a job on ubuntu checks out, sets up Node 20 with the npm cache, then runs npm ci and npm test', () => {
  const job = jobs(loadWorkflow()).find((candidate) => {
    const list = steps(candidate);
    return index(list, runs(/\bnpm test\b/)) >= 0;
  });
  assert.ok(job, 'no job runs npm test');
  assert.match(String(job['runs-on']), /^ubuntu-/);
  const list = steps(job);
  const checkout = index(list, uses('actions/checkout'));
  const setupNode = index(list, uses('actions/setup-node'));
  const install = index(list, runs(/\bnpm ci\b/));
  const test = index(list, runs(/\bnpm test\b/));
  assert.ok(checkout >= 0 && setupNode > checkout, 'checkout, then setup-node');
  assert.ok(install > setupNode && test > install, 'setup-node, then npm ci, then npm test');
  const setup = list[setupNode];
  const options = isObject(setup?.with) ? setup.with : {};
  assert.match(String(options['node-version']), /^20(\.x|\.\d+(\.\d+)?)?$/);
  assert.equal(options.cache, 'npm');
});
