import { describe, expect, it } from 'vitest';
import { functionAdapter } from '../../src/adapters/function.ts';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { adapterContract, notApplicable, scriptedAgent } from '../../src/testing.ts';
import { contractScript, TOOLS, USAGE } from '../fixtures/contract/script.ts';
import { environment } from '../unit/adapters/trial-context.ts';

const IN_PROCESS = 'it runs in this process and starts no process of its own';
const fixtures = new URL('../fixtures/contract/', import.meta.url).pathname;

// The scripted agent shipped in harnesseval/testing is an adapter like any other: it passes too.
adapterContract(
  'scripted agent (harnesseval/testing)',
  { describe, it, expect },
  {
    success: async () => ({ agent: scriptedAgent(contractScript), input: 'Ada', output: 'Hello, Ada!' }),
    errors: {
      'a scripted error': async () => ({
        agent: scriptedAgent(contractScript),
        input: 'refuse',
        error_kind: 'agent',
      }),
      'a scripted throw': async () => ({
        agent: scriptedAgent(contractScript),
        input: 'boom',
        error_kind: 'agent',
      }),
      'an input the script does not know': async () => ({
        agent: scriptedAgent(contractScript),
        input: 'nobody',
        error_kind: 'agent',
      }),
    },
    hang: async () => ({ agent: scriptedAgent(contractScript), input: 'hang' }),
    orphans: notApplicable(IN_PROCESS),
    usage: async () => ({ agent: scriptedAgent(contractScript), input: 'usage', usage: USAGE }),
    events: async () => ({
      agent: scriptedAgent(contractScript),
      input: 'work',
      agent_calls: 2,
      tool_calls: TOOLS,
    }),
  },
);

// Loading a TypeScript module costs a second or more on a loaded machine: each is loaded once (the
// function agent has no close() for the contract to call between cases).
const loaded = new Map<string, Promise<AgentV1>>();
function functionAgent(module = 'run'): Promise<AgentV1> {
  const options = functionAdapter.options.parse({ module: `./function-agents.ts#${module}` });
  let agent = loaded.get(module);
  if (agent === undefined) {
    agent = functionAdapter.create(options, { ...environment('function'), baseDir: fixtures });
    loaded.set(module, agent);
  }
  return agent;
}

adapterContract(
  'function',
  { describe, it, expect },
  {
    success: async () => ({ agent: await functionAgent(), input: 'Ada', output: 'Hello, Ada!' }),
    errors: {
      'a function that throws': async () => ({
        agent: await functionAgent(),
        input: 'boom',
        error_kind: 'agent',
      }),
      'a function that returns an errored output': async () => ({
        agent: await functionAgent(),
        input: 'overloaded',
        error_kind: 'transient',
      }),
      'a result that is not JSON data': async () => ({
        agent: await functionAgent('notData'),
        input: 'Ada',
        error_kind: 'invalid_output',
      }),
    },
    hang: async () => ({ agent: await functionAgent(), input: 'hang' }),
    orphans: notApplicable(IN_PROCESS),
    usage: async () => ({ agent: await functionAgent(), input: 'usage', usage: USAGE }),
    events: async () => ({ agent: await functionAgent(), input: 'work', agent_calls: 2, tool_calls: TOOLS }),
  },
);
