import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type McpServer as AcpMcpServer,
  type AnyMessage,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
} from '@agentclientprotocol/sdk';
import type { AgentOutput, HumanTouchpoint } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { endEscapees, newProcessTag, tagEnv, trackChildGroup } from '../util/child-groups.ts';
import { TailBuffer } from '../util/tail-buffer.ts';
import { withTimeout } from '../util/timeout.ts';
import { parseAcpSession } from './acp-updates.ts';
import { abortedOutput, failedOutput, secondsSince } from './agent-result.ts';
import { type AcpOptions, AcpOptionsSchema, type McpServer } from './coding-agent-options.ts';
import {
  agentHome,
  childEnvironment,
  containedRun,
  resolveCommand,
  transcriptOutput,
} from './coding-agent-run.ts';
import { inputText } from './input-template.ts';
import { terminateProcessGroup } from './process-group.ts';
import { spawnFailure } from './subprocess.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type PermissionRequest = {
  toolCall?: { title?: string | null; toolCallId?: string };
  options: { optionId: string; kind: string }[];
};

/** Answers `session/request_permission` by the configured policy, recording the touchpoint. */
function answerPermission(
  request: PermissionRequest,
  policy: AcpOptions['permission'],
  seen: HumanTouchpoint[],
) {
  const pick = (...kinds: string[]) =>
    kinds.map((k) => request.options.find((o) => o.kind === k)).find(Boolean);
  const option =
    policy === 'allow'
      ? pick('allow_once', 'allow_always')
      : policy === 'deny'
        ? pick('reject_once', 'reject_always')
        : undefined;
  const title = request.toolCall?.title ?? request.toolCall?.toolCallId ?? 'a tool call';
  seen.push({
    action: 'permission',
    kind: 'unplanned',
    minutes: 0,
    note: `${option === undefined ? 'cancelled' : policy}: ${title}`,
  });
  return option === undefined
    ? { outcome: { outcome: 'cancelled' as const } }
    : { outcome: { outcome: 'selected' as const, optionId: option.optionId } };
}

/** A path the agent names, only when it lies inside the trial's workspace. */
function inside(root: string, path: string): string {
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${path} is outside the workspace`);
  return target;
}

function acpMcpServers(servers: Record<string, McpServer>): AcpMcpServer[] {
  return Object.entries(servers).map(([name, server]) =>
    'command' in server
      ? {
          name,
          command: server.command,
          args: server.args,
          env: Object.entries(server.env).map(([n, value]) => ({ name: n, value })),
        }
      : {
          name,
          type: server.type,
          url: server.url,
          headers: Object.entries(server.headers).map(([n, value]) => ({ name: n, value })),
        },
  );
}

async function runAcp(
  options: AcpOptions,
  environment: AdapterEnvironment,
  input: TaskInput,
  ctx: TrialContext,
): Promise<AgentOutput> {
  if (ctx.signal.aborted) return abortedOutput(ctx.signal);
  // The client serves the agent's file reads and writes at host paths: a sandbox that shows other
  // paths is refused rather than silently run around.
  if (ctx.sandbox !== undefined && !ctx.sandbox.seesHostPaths)
    return failedOutput(
      'config',
      `the acp adapter runs its agent on the host; it cannot run inside the ${ctx.sandbox.backend} sandbox (use sandbox backend none, or the claude-code or codex adapter)`,
    );
  const home = await agentHome('acp', ctx);
  try {
    return await runAcpSession(options, environment, input, ctx, home.host);
  } finally {
    await home.remove();
  }
}

async function runAcpSession(
  options: AcpOptions,
  environment: AdapterEnvironment,
  input: TaskInput,
  ctx: TrialContext,
  home: string,
): Promise<AgentOutput> {
  const start = performance.now();
  const cwd = ctx.workspace ?? environment.baseDir;
  // A HOME of its own per trial, like every coding-agent CLI: no shared sessions, caches or credentials.
  const spec = {
    command: resolveCommand(options.command, environment.baseDir),
    args: options.args.concat(options.extra_args),
    cwd,
    env: childEnvironment(options, environment, [], { HOME: home }, ctx),
    stdin: '',
  };
  // Tagged and tracked like every harness process (subprocess.ts): nothing it starts outlives it.
  const tag = newProcessTag();
  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      cwd,
      env: { ...spec.env, ...tagEnv(tag) },
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    return spawnFailure(error, spec, secondsSince(start));
  }
  const untrack = child.pid === undefined ? () => {} : trackChildGroup(child.pid, tag);
  const stderr = new TailBuffer(2048);
  child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
  child.stdin?.on('error', () => {});
  let exit: string | undefined;
  let spawnError: unknown;
  const exited = new Promise<string>((settle) => {
    child.on('error', (error) => {
      spawnError = error;
      settle('spawn');
    });
    child.on('exit', (code, signal) => {
      exit = `the ACP agent exited (${signal ?? `code ${code}`}) before the turn ended`;
      settle(exit);
    });
  });
  const updates: unknown[] = [];
  const permissions: HumanTouchpoint[] = [];
  let response: unknown;
  const app = client({ name: 'harnesseval' })
    .onRequest('session/request_permission', ({ params }) =>
      answerPermission(params as PermissionRequest, options.permission, permissions),
    )
    .onRequest('fs/read_text_file', async ({ params }) => ({
      content: await readFile(inside(cwd, params.path), 'utf8'),
    }))
    .onRequest('fs/write_text_file', async ({ params }) => {
      await writeFile(inside(cwd, params.path), params.content);
      return {};
    });
  const transport = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  // session/update notifications are taken off the wire as they come: the SDK would parse each
  // one and refuse (and log) a type it does not know, which the trace keeps as a raw event instead.
  const stream = {
    writable: transport.writable,
    readable: transport.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform(message, controller) {
          if ('method' in message && !('id' in message) && message.method === 'session/update')
            updates.push(message.params);
          else controller.enqueue(message);
        },
      }),
    ),
  };
  let failure: AgentOutput | undefined;
  const aborted = new Promise<void>((settle) =>
    ctx.signal.addEventListener('abort', () => settle(), { once: true }),
  );
  try {
    const work = app.connectWith(stream, async (agent) => {
      await withTimeout(
        agent.request('initialize', {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        }),
        options.startup_timeout_seconds * 1000,
      ).catch((error: unknown) => {
        throw new StartupError(`the ACP agent did not initialize: ${errorMessage(error)}`);
      });
      // session/new and session/prompt directly, not the SDK's session helper (it reads updates).
      const { sessionId } = await agent.request('session/new', {
        cwd,
        mcpServers: acpMcpServers(options.mcp_servers),
      });
      response = await agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: inputText(input) }],
      });
    });
    const ended = await Promise.race([work.then(() => 'done'), exited, aborted.then(() => 'aborted')]);
    if (ended === 'aborted') failure = abortedOutput(ctx.signal, { latency: secondsSince(start) });
    else if (ended === 'spawn') return spawnFailure(spawnError, spec, secondsSince(start));
    else if (ended !== 'done')
      failure = failedOutput('crash', withTail(ended, stderr), { latency: secondsSince(start) });
  } catch (error) {
    // A closed connection is usually the agent dying: its exit says more than the connection.
    await Promise.race([exited, delay(250)]);
    const kind = error instanceof StartupError ? 'config' : exit === undefined ? 'agent' : 'crash';
    const message = exit ?? `ACP: ${errorMessage(error)}`;
    failure = ctx.signal.aborted
      ? abortedOutput(ctx.signal, { latency: secondsSince(start) })
      : failedOutput(kind, withTail(message, stderr), { latency: secondsSince(start) });
  } finally {
    if (child.pid !== undefined) await terminateProcessGroup(child.pid);
    await endEscapees(tag);
    untrack();
  }
  const parsed = parseAcpSession({ updates, permissions, ...(response === undefined ? {} : { response }) });
  if (failure === undefined && parsed.error !== undefined)
    failure = failedOutput(parsed.error.kind, parsed.error.message, { latency: secondsSince(start) });
  return transcriptOutput(parsed, failure, secondsSince(start), {});
}

/** The agent never completed `initialize`: a configuration problem, not a failure of the task. */
class StartupError extends Error {}

function withTail(message: string, stderr: TailBuffer): string {
  const tail = stderr.toString().trim();
  return tail === '' ? message : `${message}; stderr: ${tail}`;
}

export const acpAdapter: AdapterDefinition<typeof AcpOptionsSchema> = {
  name: 'acp',
  description:
    'An Agent Client Protocol agent over stdio: one session per trial, permission requests by policy.',
  options: AcpOptionsSchema,
  create: async (options, environment): Promise<AgentV1> => ({
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'files',
    run: (input, ctx) => containedRun(() => runAcp(options, environment, input, ctx)),
  }),
};
