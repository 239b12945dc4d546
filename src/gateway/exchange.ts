import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { errorMessage } from '../core/errors.ts';
import type { HangUp } from './hang-up.ts';
import type { ApiModule, CallObservation, ModelTurn, RequestView } from './protocol.ts';
import { emptyObservation } from './protocol.ts';
import { ResponseTap } from './response-tap.ts';
import type { GatewayRoute } from './routes.ts';
import { ScriptMiss } from './scripted-model.ts';

/** One model call in progress: the request as read, and where its answer goes. */
export interface Exchange {
  readonly api: ApiModule;
  readonly view: RequestView;
  readonly body: Record<string, unknown>;
  readonly raw: Buffer;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly route: GatewayRoute;
  readonly seq: number;
  /** `performance.now()` when the request had been read. */
  readonly started: number;
  /** The request's path and query after the route prefix (`/v1/messages?beta=true`). */
  readonly path: string;
  /** Fires when the harness hangs up before the answer is complete. */
  readonly signal: HangUp;
  readonly keepText: boolean;
}

/** How a call ended: the status sent, what the answer carried, and any error. */
export interface Outcome {
  readonly status: number;
  readonly observation: CallObservation;
  readonly upstream: string;
  readonly ttftSeconds?: number | undefined;
  /** `performance.now()` when the answer had been sent, when recording it came later. */
  readonly sentAt?: number;
  readonly text?: string;
  readonly error?: string;
  /** The usage the script set, exact even when the wire format omits it (a chat stream). */
  readonly scriptedUsage?: ModelTurn['usage'];
}

/** A tap for the call's answer; `hideUsage` keeps usage-only chunks the harness did not ask for from it. */
export function newTap(ex: Exchange, hideUsage = false): ResponseTap {
  return new ResponseTap(ex.res, ex.api, ex.started, { keepText: ex.keepText, hideUsage });
}

/** Sends an API error in the API's own shape and records it as the call's outcome. */
export function errorOutcome(
  ex: Exchange,
  status: number,
  type: string,
  message: string,
  upstream: string,
): Outcome {
  if (!ex.res.headersSent && !ex.res.destroyed) {
    ex.res.writeHead(status, { 'content-type': 'application/json' });
    ex.res.end(JSON.stringify(ex.api.errorBody(type, message)));
  }
  return { status, observation: emptyObservation(), upstream, error: `${type}: ${message}` };
}

function responseId(ex: Exchange): string {
  const stem = `${ex.route.id}_${ex.seq}`.replace(/[^A-Za-z0-9_]/g, '');
  if (ex.api.api === 'anthropic-messages') return `msg_${stem}`;
  return ex.api.api === 'openai-chat' ? `chatcmpl-${stem}` : `resp_${stem}`;
}

/** Waits until the harness hangs up (a scripted hang), or the route closes with the gateway. */
function untilHangUp(signal: HangUp): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
}

/** Answers from the route's model script. */
export async function answerFromScript(ex: Exchange): Promise<Outcome> {
  const pending = ex.route.conversation();
  if (pending === undefined)
    return errorOutcome(ex, 500, 'gateway_error', 'no script for this route', 'script');
  let answer: ReturnType<Awaited<typeof pending>['answer']>;
  try {
    answer = (await pending).answer(ex.view);
  } catch (error) {
    if (error instanceof ScriptMiss) return errorOutcome(ex, 400, error.type, error.message, 'script');
    // A script that cannot be loaded fails every call of the trial, saying why.
    return errorOutcome(ex, 400, 'script_error', errorMessage(error), 'script');
  }
  if (answer.kind === 'hang') {
    await untilHangUp(ex.signal);
    return {
      status: 0,
      observation: emptyObservation(),
      upstream: 'script',
      error: 'no answer: the script hangs',
    };
  }
  if (answer.delayMs > 0) {
    try {
      await delay(answer.delayMs, undefined, { signal: ex.signal.asAbortSignal() });
    } catch {
      return { status: 0, observation: emptyObservation(), upstream: 'script', error: 'the harness hung up' };
    }
  }
  if (answer.kind === 'error') return errorOutcome(ex, answer.status, answer.type, answer.message, 'script');
  const ids = { response: responseId(ex) };
  const tap = newTap(ex);
  if (!ex.view.stream) {
    tap.head(200, { 'content-type': 'application/json' }, true);
    tap.write(JSON.stringify(ex.api.renderJson(answer.turn, ex.view, ids)));
  } else {
    tap.head(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, true);
    for (const chunk of ex.api.renderEvents(answer.turn, ex.view, ids)) tap.write(chunk);
  }
  const observation = tap.end();
  return {
    status: 200,
    observation,
    upstream: 'script',
    scriptedUsage: answer.turn.usage,
    ...(ex.keepText ? { text: tap.text() } : {}),
    ...(tap.ttftSeconds() === undefined ? {} : { ttftSeconds: tap.ttftSeconds() }),
  };
}
