/**
 * The viewer's URLs. Every screen is a GET of a bookmarkable URL whose state lives in the path
 * and query string; the only writes are the POSTs listed here. `routeFor` is pure, so the table
 * of URLs is tested without a server.
 */
export type Route =
  | { readonly kind: 'experiments'; readonly query: URLSearchParams }
  | { readonly kind: 'experiment'; readonly id: string; readonly query: URLSearchParams }
  | { readonly kind: 'grading'; readonly id: string; readonly query: URLSearchParams }
  | { readonly kind: 'grade'; readonly id: string }
  | { readonly kind: 'compare'; readonly ids: readonly string[] }
  | {
      readonly kind: 'task_traces';
      readonly baseline: string;
      readonly candidate: string;
      readonly task: string;
    }
  | { readonly kind: 'timeline'; readonly harness?: string; readonly suite?: string }
  | {
      readonly kind: 'trial';
      readonly id: string;
      readonly task: string;
      readonly epoch: number;
      /** The trace page, or its data for the experiment page's panel. */
      readonly format: 'html' | 'json';
    }
  | { readonly kind: 'live'; readonly id: string }
  | { readonly kind: 'events'; readonly id: string }
  | { readonly kind: 'annotate'; readonly id: string }
  | {
      readonly kind: 'annotation_edit' | 'annotation_delete';
      readonly id: string;
      readonly annotation: number;
    }
  | { readonly kind: 'annotations_export'; readonly id: string; readonly format: string }
  | { readonly kind: 'grades'; readonly id: string; readonly format: string }
  | { readonly kind: 'script' }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'method_not_allowed'; readonly allow: string };

/** Where the client script is served from (the page shell links it). */
export const SCRIPT_PATH = '/assets/viewer.js';

const EXPERIMENT = /^\/experiments\/([^/]+)$/;
const GRADING = /^\/experiments\/([^/]+)\/grade$/;
/** The live screen, its event stream, the annotation POST and the grade download. */
const EXPERIMENT_PART =
  /^\/experiments\/([^/]+)\/(live|events|annotations|(?:grades|annotations)\.(?:csv|jsonl))$/;
/** One annotation's edit (POST) and delete (POST …/delete). */
const ANNOTATION = /^\/experiments\/([^/]+)\/annotations\/(\d{1,15})(\/delete)?$/;

function annotationRoute(method: string, url: URL): Route | undefined {
  const match = ANNOTATION.exec(url.pathname);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  if (method !== 'POST') return { kind: 'method_not_allowed', allow: 'POST' };
  const id = decoded(match[1]);
  if (id === undefined) return { kind: 'not_found' };
  const kind = match[3] === undefined ? 'annotation_edit' : 'annotation_delete';
  return { kind, id, annotation: Number(match[2]) };
}
/** One trial's trace: /experiments/ID/trials/TASK/EPOCH (and `.json`, its data). */
const TRIAL = /^\/experiments\/([^/]+)\/trials\/([^/]+)\/(\d{1,9})(\.json)?$/;

function trialRoute(method: string, url: URL): Route | undefined {
  const match = TRIAL.exec(url.pathname);
  if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) return undefined;
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'method_not_allowed', allow: 'GET, HEAD' };
  const id = decoded(match[1]);
  const task = decoded(match[2]);
  if (id === undefined || task === undefined) return { kind: 'not_found' };
  return {
    kind: 'trial',
    id,
    task,
    epoch: Number(match[3]),
    format: match[4] === undefined ? 'html' : 'json',
  };
}

function experimentPart(method: string, url: URL): Route | undefined {
  const match = EXPERIMENT_PART.exec(url.pathname);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const id = decoded(match[1]);
  if (id === undefined) return { kind: 'not_found' };
  const part = match[2];
  if (part === 'annotations')
    return method === 'POST' ? { kind: 'annotate', id } : { kind: 'method_not_allowed', allow: 'POST' };
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'method_not_allowed', allow: 'GET, HEAD' };
  if (part === 'live' || part === 'events') return { kind: part, id };
  if (part.startsWith('annotations.'))
    return { kind: 'annotations_export', id, format: part.slice('annotations.'.length) };
  return { kind: 'grades', id, format: part.slice('grades.'.length) };
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function nonEmpty(value: string | null): string | undefined {
  return value === null || value.trim() === '' ? undefined : value;
}

export function routeFor(method: string, url: URL): Route {
  const path = url.pathname;
  const part = experimentPart(method, url) ?? trialRoute(method, url) ?? annotationRoute(method, url);
  if (part !== undefined) return part;
  const grading = GRADING.exec(path);
  if (grading?.[1] !== undefined) {
    const id = decoded(grading[1]);
    if (id === undefined) return { kind: 'not_found' };
    if (method === 'POST') return { kind: 'grade', id };
    if (method === 'GET' || method === 'HEAD') return { kind: 'grading', id, query: url.searchParams };
    return { kind: 'method_not_allowed', allow: 'GET, HEAD, POST' };
  }
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'method_not_allowed', allow: 'GET, HEAD' };
  if (path === '/' || path === '/experiments') return { kind: 'experiments', query: url.searchParams };
  if (path === SCRIPT_PATH) return { kind: 'script' };
  if (path === '/compare') {
    const ids = url.searchParams.getAll('id').filter((id) => id.trim() !== '');
    return { kind: 'compare', ids };
  }
  if (path === '/compare/task') {
    const [baseline, candidate, task] = ['a', 'b', 'task'].map((k) => nonEmpty(url.searchParams.get(k)));
    if (baseline === undefined || candidate === undefined || task === undefined) return { kind: 'not_found' };
    return { kind: 'task_traces', baseline, candidate, task };
  }
  if (path === '/timeline') {
    const harness = nonEmpty(url.searchParams.get('harness'));
    const suite = nonEmpty(url.searchParams.get('suite'));
    return {
      kind: 'timeline',
      ...(harness === undefined ? {} : { harness }),
      ...(suite === undefined ? {} : { suite }),
    };
  }
  const experiment = EXPERIMENT.exec(path);
  if (experiment?.[1] !== undefined) {
    const id = decoded(experiment[1]);
    return id === undefined ? { kind: 'not_found' } : { kind: 'experiment', id, query: url.searchParams };
  }
  return { kind: 'not_found' };
}

/** Links between screens, built in one place so every id is encoded the same way. */
export const links = {
  experiments: (query: Readonly<Record<string, string | undefined>> = {}): string => withQuery('/', query),
  experiment: (id: string, query: Readonly<Record<string, string | undefined>> = {}): string =>
    withQuery(`/experiments/${encodeURIComponent(id)}`, query),
  grading: (id: string): string => `/experiments/${encodeURIComponent(id)}/grade`,
  /** One trial's trace page; `json` its data (what the experiment page's panel loads). */
  trial: (id: string, task: string, epoch: number, format: 'html' | 'json' = 'html'): string =>
    `/experiments/${encodeURIComponent(id)}/trials/${encodeURIComponent(task)}/${epoch}${format === 'json' ? '.json' : ''}`,
  live: (id: string): string => `/experiments/${encodeURIComponent(id)}/live`,
  events: (id: string): string => `/experiments/${encodeURIComponent(id)}/events`,
  annotations: (id: string): string => `/experiments/${encodeURIComponent(id)}/annotations`,
  /** One annotation's edit; `delete` its deletion. */
  annotation: (id: string, annotation: number, action: 'edit' | 'delete' = 'edit'): string =>
    `/experiments/${encodeURIComponent(id)}/annotations/${annotation}${action === 'delete' ? '/delete' : ''}`,
  annotationsExport: (id: string, format: 'csv' | 'jsonl'): string =>
    `/experiments/${encodeURIComponent(id)}/annotations.${format}`,
  grades: (id: string, format: 'csv' | 'jsonl'): string =>
    `/experiments/${encodeURIComponent(id)}/grades.${format}`,
  compare: (ids: readonly string[]): string =>
    `/compare?${ids.map((id) => `id=${encodeURIComponent(id)}`).join('&')}`,
  /** One task's traces in two experiments, side by side. */
  taskTraces: (baseline: string, candidate: string, task: string): string =>
    withQuery('/compare/task', { a: baseline, b: candidate, task }),
  timeline: (harness?: string, suite?: string): string => withQuery('/timeline', { harness, suite }),
};

function withQuery(path: string, query: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, value);
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}
