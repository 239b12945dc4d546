import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isObject, jobs, loadWorkflow, steps } from './support.ts';

test('the workflow token is read-only, jobs time out and actions are pinned', () => {
  const workflow = loadWorkflow();
  const all = jobs(workflow);
  assert.ok(all.length > 0);
  for (const job of all) {
    const permissions = isObject(job.permissions) ? job.permissions : workflow.permissions;
    assert.ok(isObject(permissions), 'permissions are set');
    assert.equal(permissions.contents, 'read');
    for (const [scope, access] of Object.entries(permissions)) {
      assert.ok(access === 'read' || access === 'none', `${scope}: ${String(access)} is more than read`);
    }
    const timeout = job['timeout-minutes'];
    assert.ok(
      typeof timeout === 'number' && timeout > 0 && timeout <= 30,
      `timeout-minutes: ${String(timeout)}`,
    );
    for (const step of steps(job)) {
      if (typeof step.uses === 'string') assert.match(step.uses, /^[\w.-]+\/[\w.-]+@[\w.-]+$/, step.uses);
      if (typeof step.run === 'string')
        assert.doesNotMatch(step.run, /\bnpm (install|i)\b/, 'CI installs with npm ci');
    }
  }
});
