import { existsSync, readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

export const root = new URL('../../', import.meta.url);
export const workflowPath = new URL('.github/workflows/ci.yml', root);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The workflow as plain data; fails the test with the YAML errors when it does not parse. */
export function loadWorkflow(): Record<string, unknown> {
  if (!existsSync(workflowPath)) throw new Error('.github/workflows/ci.yml does not exist');
  const document = parseDocument(readFileSync(workflowPath, 'utf8'));
  if (document.errors.length > 0) throw new Error(`ci.yml is not valid YAML: ${document.errors.join('; ')}`);
  const workflow: unknown = document.toJS();
  if (!isObject(workflow)) throw new Error('ci.yml must be a mapping');
  return workflow;
}

export function jobs(workflow: Record<string, unknown>): Record<string, unknown>[] {
  const all = workflow.jobs;
  if (!isObject(all)) return [];
  return Object.values(all).filter(isObject);
}

export function steps(job: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(job.steps) ? job.steps.filter(isObject) : [];
}
