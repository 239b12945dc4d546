import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isObject, loadWorkflow } from './support.ts';

function triggers(on: unknown): string[] {
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.filter((t): t is string => typeof t === 'string');
  return isObject(on) ? Object.keys(on) : [];
}

test('.github/workflows/ci.yml is valid YAML and runs on push and pull_request', () => {
  const workflow = loadWorkflow();
  const on = triggers(workflow.on);
  assert.ok(on.includes('push'), `triggers: ${on.join(', ')}`);
  assert.ok(on.includes('pull_request'), `triggers: ${on.join(', ')}`);
  assert.ok(isObject(workflow.jobs) && Object.keys(workflow.jobs).length > 0, 'the workflow has jobs');
});
