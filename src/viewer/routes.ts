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
  | { readonly kind: 'timeline'; readonly harness?: string; readonly suite?: string }
  | { readonly kind: 'live'; readonly id: string }
  | { readonly kind: 'events'; readonly id: string }
  | { readonly kind: 'annotate'; readonly id: string }
  | { readonly kind: 'grades'; readonly id: string; readonly format: string }
  | { readonly kind: 'script' }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'method_not_allowed'; readonly allow: string };

/** Where the client script is served from (the page shell links it). */
export const SCRIPT_PATH = '/assets/viewer.js';

const EXPERIMENT = /^\/experiments\/([^/]+)$/;
const GRADING = /^\/experiments\/([^/]+)\/grade$/;
/** The live screen, its event stream, the annotation POST and the grade download. */
const EXPERIMENT_PART = /^\/experiments\/([^/]+)\/(live|events|annotations|grades\.(?:csv|jsonl))$/;

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
  const part = experimentPart(method, url);
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
  live: (id: string): string => `/experiments/${encodeURIComponent(id)}/live`,
  events: (id: string): string => `/experiments/${encodeURIComponent(id)}/events`,
  annotations: (id: string): string => `/experiments/${encodeURIComponent(id)}/annotations`,
  grades: (id: string, format: 'csv' | 'jsonl'): string =>
    `/experiments/${encodeURIComponent(id)}/grades.${format}`,
  compare: (ids: readonly string[]): string =>
    `/compare?${ids.map((id) => `id=${encodeURIComponent(id)}`).join('&')}`,
  timeline: (harness?: string, suite?: string): string => withQuery('/timeline', { harness, suite }),
};

function withQuery(path: string, query: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, value);
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}
