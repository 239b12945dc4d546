#!/usr/bin/env node
/**
 * The scripted operator: a harness with no model that works the runbook in its workspace the way
 * an agent would — run the check, read what it says, change the one thing it points at, check
 * again — with a rule per runbook in place of judgement (./procedures.mjs). Prints what it did;
 * exits 1 when a procedure reaches a state it has no rule for.
 */
import { procedures } from './procedures.mjs';
import { runbookId } from './runbook.mjs';

const id = runbookId();
const procedure = procedures[id];
if (procedure === undefined) {
  process.stderr.write(`no procedure for runbook ${id}\n`);
  process.exit(1);
}
try {
  const actions = procedure();
  process.stdout.write(`${id}:\n${actions.map((a) => `- ${a}`).join('\n')}\n`);
} catch (error) {
  process.stderr.write(`${id}: stuck: ${error.message}\n`);
  process.exit(1);
}
