import { describe, expect, it } from 'vitest';
import { links, routeFor, SCRIPT_PATH } from '../../../src/viewer/routes.ts';

const at = (path: string) => new URL(path, 'http://127.0.0.1:1');

describe('routeFor', () => {
  it('maps each screen URL to its route', () => {
    expect(routeFor('GET', at('/')).kind).toBe('experiments');
    expect(routeFor('GET', at('/experiments?suite=s')).kind).toBe('experiments');
    expect(routeFor('GET', at('/experiments/exp%2F1'))).toMatchObject({ kind: 'experiment', id: 'exp/1' });
    expect(routeFor('GET', at('/experiments/e1/grade'))).toMatchObject({ kind: 'grading', id: 'e1' });
    expect(routeFor('POST', at('/experiments/e1/grade'))).toEqual({ kind: 'grade', id: 'e1' });
    expect(routeFor('GET', at('/compare?id=a&id=&id=b'))).toEqual({ kind: 'compare', ids: ['a', 'b'] });
    expect(routeFor('GET', at('/timeline?harness=h&suite='))).toEqual({ kind: 'timeline', harness: 'h' });
    expect(routeFor('HEAD', at(SCRIPT_PATH))).toEqual({ kind: 'script' });
  });

  it('maps the live screen, its stream, the annotation POST and the grade downloads', () => {
    expect(routeFor('GET', at('/experiments/e%2F1/live'))).toEqual({ kind: 'live', id: 'e/1' });
    expect(routeFor('GET', at(links.events('e 1')))).toEqual({ kind: 'events', id: 'e 1' });
    expect(routeFor('POST', at(links.annotations('e1')))).toEqual({ kind: 'annotate', id: 'e1' });
    expect(routeFor('GET', at(links.annotations('e1')))).toEqual({
      kind: 'method_not_allowed',
      allow: 'POST',
    });
    expect(routeFor('POST', at(links.live('e1')))).toEqual({
      kind: 'method_not_allowed',
      allow: 'GET, HEAD',
    });
    expect(routeFor('GET', at(links.grades('e1', 'csv')))).toEqual({
      kind: 'grades',
      id: 'e1',
      format: 'csv',
    });
    expect(routeFor('GET', at(links.grades('e1', 'jsonl')))).toEqual({
      kind: 'grades',
      id: 'e1',
      format: 'jsonl',
    });
    expect(routeFor('GET', at('/experiments/e1/grades.xml')).kind).toBe('not_found');
    expect(routeFor('GET', at('/experiments/%E0%A4%A/live')).kind).toBe('not_found');
  });

  it('answers not_found for unknown paths and bad escapes, and refuses other methods', () => {
    expect(routeFor('GET', at('/experiments/%E0%A4%A')).kind).toBe('not_found');
    expect(routeFor('GET', at('/experiments/a/b')).kind).toBe('not_found');
    expect(routeFor('GET', at('/assets/other.js')).kind).toBe('not_found');
    expect(routeFor('POST', at('/'))).toEqual({ kind: 'method_not_allowed', allow: 'GET, HEAD' });
    expect(routeFor('DELETE', at('/experiments/e1/grade'))).toEqual({
      kind: 'method_not_allowed',
      allow: 'GET, HEAD, POST',
    });
  });
});

describe('links', () => {
  it('encodes ids and drops empty query values, and routeFor reads them back', () => {
    const id = 'a b/<c>?&';
    expect(links.experiment(id)).toBe('/experiments/a%20b%2F%3Cc%3E%3F%26');
    expect(routeFor('GET', at(links.experiment(id)))).toMatchObject({ kind: 'experiment', id });
    expect(links.experiments({ suite: 'x', harness: '' })).toBe('/?suite=x');
    expect(links.compare(['a&b', 'c'])).toBe('/compare?id=a%26b&id=c');
    expect(routeFor('GET', at(links.compare(['a&b', 'c'])))).toEqual({ kind: 'compare', ids: ['a&b', 'c'] });
    expect(links.timeline('javascript:x', 's')).toBe('/timeline?harness=javascript%3Ax&suite=s');
  });
});
