/**
 * What `harnesseval init` writes for the harness under test: `evals/harness.yaml` for the chosen
 * adapter and, for the adapters that run your code, a small sample agent to replace with a call
 * into your harness. Pure functions: answers in, files out.
 */

export const INIT_ADAPTERS = ['function', 'http', 'cli', 'mcp', 'claude-code', 'codex'] as const;
export type InitAdapter = (typeof INIT_ADAPTERS)[number];

export interface InitAnswers {
  readonly name: string;
  readonly domain: string;
  readonly adapter: InitAdapter;
  /** The port of the sample HTTP harness (http only). */
  readonly port: number;
}

export interface GeneratedFile {
  /** Relative to the project folder, `/`-separated. */
  readonly path: string;
  readonly content: string;
  readonly executable?: boolean;
}

/** Adapters whose harness works in the trial's workspace: they get the command-checked task. */
export function hasWorkspace(adapter: InitAdapter): boolean {
  return adapter !== 'http' && adapter !== 'mcp';
}

/** The sample agent's one skill, shared by every sample: greet whoever the prompt names. */
const ANSWER_JS = `/**
 * The sample agent's whole skill: it greets the person a prompt names ("Greet Ada Lovelace."),
 * and writes the greeting to a file when asked ("... in the file GREETING.txt").
 * Replace it with a call into your harness: give it the prompt, return its answer.
 */
function answer(prompt) {
  const match = /^\\s*greet\\s+(.+?)(?:\\s+in the file\\s+(\\S+?))?\\s*[.!]?\\s*$/i.exec(prompt);
  if (match === null) return { text: 'I can only greet people so far. Try: Greet Ada Lovelace.' };
  return { text: 'Hello, ' + match[1] + '!', file: match[2] };
}
`;

function functionAgent(): GeneratedFile {
  return {
    path: 'evals/harness/agent.mjs',
    content: `// The harness under test, run in-process by the \`function\` adapter (evals/harness.yaml):
// \`agent(input, ctx)\` gets the task's prompt and a context with the trial's workspace folder,
// an AbortSignal and trackers (ctx.agents, ctx.tools, ...); it returns the answer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

${ANSWER_JS}
export async function agent(input, ctx) {
  const prompt = typeof input === 'string' ? input : JSON.stringify(input);
  const { text, file } = answer(prompt);
  if (file !== undefined && ctx.workspace !== undefined) writeFileSync(join(ctx.workspace, file), text + '\\n');
  return text;
}
`,
  };
}

function cliAgent(): GeneratedFile {
  return {
    path: 'evals/harness/cli-agent.mjs',
    executable: true,
    content: `#!/usr/bin/env node
// The harness under test, run as a subprocess by the \`cli\` adapter (evals/harness.yaml): the
// prompt arrives on stdin, the answer goes to stdout, and the working directory is the trial's
// workspace when the task has one. Any language works the same way.
import { readFileSync, writeFileSync } from 'node:fs';

${ANSWER_JS}
const { text, file } = answer(readFileSync(0, 'utf8'));
if (file !== undefined) writeFileSync(file, text + '\\n');
process.stdout.write(text + '\\n');
`,
  };
}

function httpAgent(port: number): GeneratedFile {
  return {
    path: 'evals/harness/http-agent.mjs',
    executable: true,
    content: `#!/usr/bin/env node
// The harness under test as an HTTP service, for the \`http\` adapter (evals/harness.yaml): POST
// /agent with {"input": "<prompt>"} answers {"output": "<answer>"}. Start it before the run:
//   node evals/harness/http-agent.mjs        (PORT=${port} by default; binds 127.0.0.1 only)
import { createServer } from 'node:http';

${ANSWER_JS}
const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/agent') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"POST /agent"}');
    return;
  }
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    let input;
    try {
      input = JSON.parse(body).input;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"expected JSON"}');
      return;
    }
    const prompt = typeof input === 'string' ? input : JSON.stringify(input);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: answer(prompt).text }));
  });
});
server.listen(Number(process.env.PORT ?? ${port}), '127.0.0.1', () => {
  process.stderr.write('listening on http://127.0.0.1:' + server.address().port + '/agent\\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`,
  };
}

function mcpServer(): GeneratedFile {
  return {
    path: 'evals/harness/mcp-server.mjs',
    content: `// The harness under test as an MCP server over stdio, for the \`mcp\` adapter (evals/harness.yaml
// starts it; one process serves the whole run). A text prompt calls the tool \`answer\` with
// {prompt}. Uses @modelcontextprotocol/sdk and zod, which harnesseval depends on.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

${ANSWER_JS}
const server = new McpServer({ name: 'sample-harness', version: '0.1.0' });
server.registerTool(
  'answer',
  { description: 'Answers a prompt', inputSchema: { prompt: z.string() } },
  async ({ prompt }) => ({ content: [{ type: 'text', text: answer(prompt).text }] }),
);
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
await server.connect(new StdioServerTransport());
`,
  };
}

const header = (answers: InitAnswers, what: string) =>
  `# The harness under test (${what}). Check it with: npx harnesseval validate evals/harness.yaml
schema_version: 1
name: ${answers.name}
version: 0.1.0
`;

/** `evals/harness.yaml` and the sample agent for the chosen adapter. */
export function harnessFiles(answers: InitAnswers): GeneratedFile[] {
  const yaml = (content: string): GeneratedFile => ({ path: 'evals/harness.yaml', content });
  switch (answers.adapter) {
    case 'function':
      return [
        yaml(`${header(answers, 'an in-process function')}adapter: function
module: ./harness/agent.mjs#agent
`),
        functionAgent(),
      ];
    case 'cli':
      return [
        yaml(`${header(answers, 'a subprocess: prompt on stdin, answer on stdout')}adapter: cli
command: ./harness/cli-agent.mjs
input: stdin
output: text
`),
        cliAgent(),
      ];
    case 'http':
      return [
        yaml(`${header(answers, 'an HTTP service; start evals/harness/http-agent.mjs first')}adapter: http
url: http://127.0.0.1:${answers.port}/agent
body: { input: "{{input}}" }
output_path: $.output
`),
        httpAgent(answers.port),
      ];
    case 'mcp':
      return [
        yaml(`${header(answers, 'an MCP server over stdio')}adapter: mcp
command: node
args: ["./harness/mcp-server.mjs"]
default_tool: answer
input_argument: prompt
startup_timeout_seconds: 30
`),
        mcpServer(),
      ];
    case 'claude-code':
      return [
        yaml(`${header(answers, 'Claude Code, run headless in each trial workspace')}adapter: claude-code
model: claude-sonnet-4-5 # recorded with every run
options:
  model: claude-sonnet-4-5 # passed to claude --model
  max_turns: 30
  permission_mode: bypassPermissions # headless: nobody is there to answer a prompt
  allowed_tools: [Read, Edit, Write, Bash]
  inherit_env: [ANTHROPIC_API_KEY]
`),
      ];
    case 'codex':
      return [
        yaml(`${header(answers, 'the Codex CLI, run with codex exec in each trial workspace')}adapter: codex
model: gpt-5-codex # recorded with every run
options:
  model: gpt-5-codex # passed to codex exec -m
  sandbox: workspace-write
  inherit_env: [OPENAI_API_KEY]
`),
      ];
  }
}
