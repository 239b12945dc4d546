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

  it('maps a trial trace, its data, the annotation edit and delete, and the annotation downloads', () => {
    expect(routeFor('GET', at(links.trial('e/1', 'task a/b', 3)))).toEqual({
      kind: 'trial',
      id: 'e/1',
      task: 'task a/b',
      epoch: 3,
      format: 'html',
    });
    expect(routeFor('GET', at(links.trial('e1', 't', 0, 'json')))).toMatchObject({
      format: 'json',
      epoch: 0,
    });
    expect(routeFor('POST', at(links.trial('e1', 't', 0))).kind).toBe('method_not_allowed');
    expect(routeFor('GET', at('/experiments/e1/trials/t/x')).kind).toBe('not_found');
    expect(routeFor('POST', at(links.annotation('e1', 7)))).toEqual({
      kind: 'annotation_edit',
      id: 'e1',
      annotation: 7,
    });
    expect(routeFor('POST', at(links.annotation('e1', 7, 'delete')))).toEqual({
      kind: 'annotation_delete',
      id: 'e1',
      annotation: 7,
    });
    expect(routeFor('GET', at(links.annotation('e1', 7, 'delete')))).toEqual({
      kind: 'method_not_allowed',
      allow: 'POST',
    });
    expect(routeFor('GET', at(links.annotationsExport('e1', 'jsonl')))).toEqual({
      kind: 'annotations_export',
      id: 'e1',
      format: 'jsonl',
    });
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

describe('task traces side by side', () => {
  it('round-trips a task of two experiments, and a URL missing one of them is not found', () => {
    const link = links.taskTraces('exp a', 'exp&b', 'task/<1>');
    expect(routeFor('GET', at(link))).toEqual({
      kind: 'task_traces',
      baseline: 'exp a',
      candidate: 'exp&b',
      task: 'task/<1>',
    });
    expect(routeFor('GET', at('/compare/task?a=x&task=t')).kind).toBe('not_found');
    expect(routeFor('POST', at(link)).kind).toBe('method_not_allowed');
  });
});
