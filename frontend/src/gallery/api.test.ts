import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { listTemplates, openAndRunTemplate, openTemplate } from './api';

const TEMPLATE = {
  slug: 'writer-critic',
  title: 'Writer and critic',
  description: 'd',
  pattern: 'p',
  origin: 'Runsight',
  document: { name: 'writer-critic' },
  document_yaml: '# kept comment\nname: writer-critic\n',
  script: { replies: {} },
  script_yaml: 'replies: {}\n',
};

type Call = { url: string; method: string; body: unknown; csrf: string | undefined };

function fakeServer(answers: Record<string, () => Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const headers = init.headers as Record<string, string>;
    calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined, csrf: headers['X-CSRFToken'] });
    const answer = answers[`${method} ${url}`];
    return answer ? answer() : new Response(JSON.stringify({ detail: 'no such route' }), { status: 404 });
  });
  return calls;
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status });

describe('gallery api', () => {
  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'csrftoken=abc' });
    vi.stubGlobal('window', { location: { pathname: '/', search: '', assign: () => undefined } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists the templates', async () => {
    const calls = fakeServer({ 'GET /api/v1/templates': json([{ slug: 'a', title: 'A', description: '', pattern: '', origin: '' }]) });
    expect((await listTemplates()).map((t) => t.slug)).toEqual(['a']);
    expect(calls[0].csrf).toBeUndefined();
  });

  it('"Open" saves the template YAML as it is', async () => {
    const calls = fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'POST /api/v1/workflows': json({ id: 7 }, 201),
    });
    const { workflow } = await openTemplate('writer-critic');
    expect(workflow.id).toBe(7);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/v1/templates/writer-critic', 'POST /api/v1/workflows']);
    expect(calls[1].body).toEqual({ source: TEMPLATE.document_yaml });
    expect(calls[1].csrf).toBe('abc');
  });

  it('"Open" saves into the current workspace when one is given', async () => {
    const calls = fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'POST /api/v1/workflows': json({ id: 8 }, 201),
    });
    await openTemplate('writer-critic', 5);
    expect(calls[1].body).toEqual({ source: TEMPLATE.document_yaml, workspace_id: 5 });
  });

  it('"Open and run" then starts a simulated run with the template script', async () => {
    const calls = fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'POST /api/v1/workflows': json({ id: 7 }, 201),
      'POST /api/v1/runs': json({ id: 'run-uuid' }, 201),
    });
    const { run } = await openAndRunTemplate('writer-critic');
    expect(run.id).toBe('run-uuid');
    expect(calls[2].body).toEqual({ workflow_id: 7, provider: 'simulated', script: TEMPLATE.script_yaml });
  });

  it('a failure reads as the server said it', async () => {
    fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'POST /api/v1/workflows': json({ id: 7 }, 201),
      'POST /api/v1/runs': json({ detail: 'version 1 has errors; fix them before running' }, 422),
    });
    const err = await openAndRunTemplate('writer-critic').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('version 1 has errors; fix them before running');
  });

  it('escapes the slug in the path', async () => {
    const calls = fakeServer({});
    await openTemplate('a/b').catch(() => undefined);
    expect(calls[0].url).toBe('/api/v1/templates/a%2Fb');
  });
});
