import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessEvalError } from '../core/errors.ts';
import { loadExperimentSuite } from '../plugins/file-plugins.ts';
import { copyPluginSet, defaultPlugins } from '../plugins/set.ts';
import { escapeHtml, renderPage } from '../reporters/html/index.ts';
import { saveGrades } from '../scoring/grading.ts';
import type { ExperimentStore } from '../store/types.ts';
import { editAnnotation, removeAnnotation, saveAnnotation } from './annotate.ts';
import { VIEWER_SCRIPT } from './client-script.ts';
import { downloadAnnotations, downloadGrades } from './grade-download.ts';
import { streamLive } from './live.ts';
import { compareScreen } from './pages/compare.ts';
import { type ScreenContext, SERVED } from './pages/context.ts';
import { experimentScreen } from './pages/experiment.ts';
import { experimentsScreen } from './pages/experiments.ts';
import { gradingScreen } from './pages/grading.ts';
import { liveScreen } from './pages/live.ts';
import { experimentDocumentById } from './pages/load.ts';
import { taskTracesScreen } from './pages/task-traces.ts';
import { timelineScreen } from './pages/timeline.ts';
import { loadTrial, trialScreen } from './pages/trial.ts';
import { links, routeFor } from './routes.ts';
import {
  cookieValue,
  hostAllowed,
  sameOrigin,
  securityHeaders,
  tokenCookieName,
  tokenMatches,
} from './security.ts';

export interface ViewerOptions {
  /** Read by every screen (open it read-only: the viewer never changes what it shows). */
  readonly store: ExperimentStore;
  /** Opened for each write (a grade) and closed after it. */
  readonly openWritableStore: () => Promise<ExperimentStore>;
  readonly token: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** How often the live screen's stream reads the store (default 1,000 ms). */
  readonly livePollMs?: number;
}

export interface RunningViewer {
  readonly server: Server;
  /** The base URL, e.g. http://127.0.0.1:4173 */
  readonly origin: string;
  /** The base URL with the token: the one link that can write. */
  readonly url: string;
  close(): Promise<void>;
}

const FORM_LIMIT = 64 * 1024;

function send(
  response: ServerResponse,
  status: number,
  body: string,
  type = 'text/html; charset=utf-8',
): void {
  response.statusCode = status;
  response.setHeader('Content-Type', type);
  response.end(body);
}

function errorPage(status: number, message: string): string {
  return renderPage({
    title: status === 404 ? 'Not found' : status === 403 ? 'Refused' : 'Error',
    sections: [{ id: 'error', title: String(status), html: `<p data-error>${escapeHtml(message)}</p>` }],
    served: SERVED,
  });
}

/** HarnessEvalError codes the user caused map to 4xx; anything else is the viewer's fault. */
function statusOf(error: unknown): number {
  if (!(error instanceof HarnessEvalError)) return 500;
  if (error.code === 'not_found') return 404;
  return error.code === 'usage' || error.code === 'invalid_input' ? 400 : 500;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    throw new HarnessEvalError('invalid_input', 'content-type: expected application/x-www-form-urlencoded');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT)
      throw new HarnessEvalError('invalid_input', `body: larger than ${FORM_LIMIT} bytes`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the viewer; resolves once it listens. */
export async function startViewer(options: ViewerOptions): Promise<RunningViewer> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${shownHost}:${port}`;
  const hosts = [`${shownHost}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`].map((h) =>
    h.toLowerCase(),
  );
  const origins = hosts.map((h) => `http://${h}`);
  const cookie = tokenCookieName(port);

  /**
   * The form of a write, once it is known to come from this viewer's pages with the token;
   * otherwise the 403 is sent and undefined returned.
   */
  async function checkedForm(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<URLSearchParams | undefined> {
    if (!sameOrigin(request, origins)) {
      send(response, 403, errorPage(403, 'refused: a write must come from a page of this viewer'));
      return undefined;
    }
    const form = await readForm(request);
    if (!tokenMatches(options.token, form.get('token'))) {
      send(response, 403, errorPage(403, 'refused: this write needs the token of the printed URL'));
      return undefined;
    }
    return form;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const writeForm = (r: IncomingMessage) => checkedForm(r, response);
    securityHeaders(response);
    if (!hostAllowed(request.headers.host, hosts))
      return send(response, 421, errorPage(421, 'unknown Host header'));
    const url = new URL(request.url ?? '/', origin);
    // The printed URL carries the token once; the browser keeps it in a same-site cookie.
    const given = url.searchParams.get('token');
    if (given !== null && request.method === 'GET') {
      if (!tokenMatches(options.token, given)) return send(response, 403, errorPage(403, 'wrong token'));
      url.searchParams.delete('token');
      response.setHeader('Set-Cookie', `${cookie}=${options.token}; HttpOnly; SameSite=Strict; Path=/`);
      response.statusCode = 303;
      response.setHeader('Location', `${url.pathname}${url.search}`);
      return void response.end();
    }
    const canWrite = tokenMatches(options.token, cookieValue(request, cookie));
    const context: ScreenContext = { store: options.store, writeToken: canWrite ? options.token : undefined };
    const route = routeFor(request.method ?? 'GET', url);
    switch (route.kind) {
      case 'experiments':
        return send(response, 200, await experimentsScreen(context, route.query));
      case 'experiment':
        return send(response, 200, await experimentScreen(context, route.id, route.query));
      case 'grading':
        return send(response, 200, await gradingScreen(context, route.id, route.query));
      case 'compare':
        return send(response, 200, await compareScreen(context, route.ids, url.searchParams));
      case 'task_traces':
        return send(response, 200, await taskTracesScreen(context, route));
      case 'timeline':
        return send(response, 200, await timelineScreen(context, route.harness, route.suite));
      case 'trial':
        if (route.format === 'html') return send(response, 200, await trialScreen(context, route));
        return send(
          response,
          200,
          JSON.stringify((await loadTrial(context, route)).data),
          'application/json; charset=utf-8',
        );
      case 'live':
        return send(response, 200, await liveScreen(context, route.id));
      case 'events':
        return streamLive(response, {
          store: options.store,
          experimentId: (await experimentDocumentById(options.store, route.id)).id,
          pollMs: options.livePollMs ?? 1000,
        });
      case 'grades':
        return downloadGrades(response, options.store, route.id, route.format);
      case 'annotations_export':
        return downloadAnnotations(response, options.store, route.id, route.format);
      case 'annotation_edit':
      case 'annotation_delete': {
        const form = await writeForm(request);
        if (form === undefined) return;
        const writable = await options.openWritableStore();
        try {
          if (route.kind === 'annotation_edit')
            await editAnnotation(writable, route.id, route.annotation, form);
          else await removeAnnotation(writable, route.id, route.annotation);
        } finally {
          await writable.close();
        }
        response.statusCode = 303;
        response.setHeader('Location', `${links.experiment(route.id)}#annotations`);
        return void response.end();
      }
      case 'annotate': {
        const form = await writeForm(request);
        if (form === undefined) return;
        const writable = await options.openWritableStore();
        try {
          await saveAnnotation(writable, route.id, form);
        } finally {
          await writable.close();
        }
        response.statusCode = 303;
        response.setHeader(
          'Location',
          `${links.experiment(route.id, { annotated: form.get('run_id') ?? '' })}#annotations`,
        );
        return void response.end();
      }
      case 'script':
        return send(response, 200, VIEWER_SCRIPT, 'text/javascript; charset=utf-8');
      case 'grade': {
        const form = await writeForm(request);
        if (form === undefined) return;
        const levels: Record<string, number> = {};
        for (const [key, value] of form)
          if (key.startsWith('level.')) levels[key.slice('level.'.length)] = Number(value);
        const grader = (form.get('grader') ?? '').trim();
        if (grader === '') throw new HarnessEvalError('invalid_input', 'grader: a name is required');
        const writable = await options.openWritableStore();
        try {
          const experiment = await writable.getExperiment(route.id);
          if (experiment === undefined)
            throw new HarnessEvalError('not_found', `no experiment ${route.id} in the store`);
          // Its own set: the store's experiments may come from suites whose modules clash.
          const plugins = copyPluginSet(defaultPlugins);
          const suite = await loadExperimentSuite(experiment, plugins);
          await saveGrades(
            writable,
            experiment,
            suite,
            { runId: form.get('run_id') ?? '', criterionId: form.get('criterion') ?? '', levels, grader },
            plugins.metrics,
          );
        } finally {
          await writable.close();
        }
        response.statusCode = 303;
        response.setHeader(
          'Location',
          `${links.grading(route.id)}?saved=${encodeURIComponent(form.get('criterion') ?? '')}`,
        );
        return void response.end();
      }
      case 'method_not_allowed':
        response.setHeader('Allow', route.allow);
        return send(response, 405, errorPage(405, `method ${request.method ?? ''} not allowed`));
      case 'not_found':
        return send(response, 404, errorPage(404, `nothing at ${url.pathname}`));
      default: {
        const unreachable: never = route;
        throw new Error(`unhandled route ${JSON.stringify(unreachable)}`);
      }
    }
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      const status = statusOf(error);
      const message =
        status === 500 ? 'the viewer failed on this page; see the terminal' : (error as Error).message;
      if (status === 500) server.emit('viewer-error', error);
      if (!response.headersSent) send(response, status, errorPage(status, message));
      else response.end();
    });
  });

  return {
    server,
    origin,
    url: `${origin}/?token=${options.token}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
