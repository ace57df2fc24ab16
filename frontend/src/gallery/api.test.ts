// First: it gives Node's Request a page address before the client is made (see testServer.ts).
import { fakeServer as answering, signedIn, type Call as SentCall } from '../api/testServer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { copiesNamed, listTemplates, nextFreeName, openAndRunTemplate, openTemplate, runAnother, runCopy, withName, type TemplateCopies } from './api';

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

type Call = SentCall & { csrf: string | undefined };

/** Answers `METHOD /path?query` from `answers`, anything else with a 404. */
function fakeServer(answers: Record<string, () => Response>): Call[] {
  const calls: Call[] = [];
  answering((call) => {
    calls.push({ ...call, csrf: call.headers.get('X-CSRFToken') ?? undefined });
    const answer = answers[`${call.method} ${call.url}`];
    return answer ? answer() : new Response(JSON.stringify({ detail: 'no such route' }), { status: 404 });
  });
  return calls;
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status });

describe('gallery api', () => {
  beforeEach(() => signedIn());
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

  it('"Open and run" saves and starts a simulated run with the template script when the workspace has no copy', async () => {
    const calls = fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'GET /api/v1/workflows?workspace=5&q=writer-critic&limit=200': json([{ id: 3, name: 'something else', version: 1, valid: true, updated_at: '2026-11-20T10:00:00Z', workspace_id: 5 }]),
      'POST /api/v1/workflows': json({ id: 7, name: 'writer-critic' }, 201),
      'POST /api/v1/runs': json({ id: 'run-uuid' }, 201),
    });
    const outcome = await openAndRunTemplate('writer-critic', 5);
    expect(outcome.kind).toBe('started');
    expect(outcome.kind === 'started' && outcome.run.id).toBe('run-uuid');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.url)).toEqual(['/api/v1/workflows', '/api/v1/runs']);
    expect(posts[0].body).toEqual({ source: TEMPLATE.document_yaml, workspace_id: 5 });
    expect(posts[1].body).toEqual({ workflow_id: 7, provider: 'simulated', script: TEMPLATE.script_yaml });
  });

  it('"Open and run" makes nothing when the workspace has a copy: it names the newest and the name another would get', async () => {
    const calls = fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'GET /api/v1/workflows?workspace=5&q=writer-critic&limit=200': json([
        { id: 3, name: 'writer-critic', version: 1, valid: true, updated_at: '2026-11-20T10:00:00Z', workspace_id: 5 },
        { id: 4, name: 'writer-critic', version: 2, valid: true, updated_at: '2026-11-22T10:00:00Z', workspace_id: 5 },
        { id: 6, name: 'writer-critic (2)', version: 1, valid: true, updated_at: '2026-11-21T10:00:00Z', workspace_id: 5 },
        // Another workspace's copy does not count (a list without the filter would hold it).
        { id: 9, name: 'writer-critic', version: 1, valid: true, updated_at: '2026-11-23T10:00:00Z', workspace_id: 8 },
      ]),
    });
    const outcome = await openAndRunTemplate('writer-critic', 5);
    expect(outcome.kind).toBe('copies');
    if (outcome.kind !== 'copies') return;
    expect(outcome.name).toBe('writer-critic');
    expect(outcome.copies.map((w) => w.id)).toEqual([4, 3]);
    expect(outcome.another).toBe('writer-critic (3)');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('"Open your copy" runs the most recently updated copy; "Make another" saves it under the free name, in the document too', async () => {
    const found: TemplateCopies = {
      template: TEMPLATE,
      name: 'writer-critic',
      copies: [{ id: 4, name: 'writer-critic', version: 2, valid: true, updated_at: '2026-11-22T10:00:00Z', workspace_id: 5, workspace_name: 'Team' }],
      another: 'writer-critic (2)',
    };
    const calls = fakeServer({
      'POST /api/v1/workflows': json({ id: 12, name: 'writer-critic (2)' }, 201),
      'POST /api/v1/runs': json({ id: 'run-uuid' }, 201),
    });
    await runCopy(found);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/runs']);
    expect(calls[0].body).toEqual({ workflow_id: 4, provider: 'simulated', script: TEMPLATE.script_yaml });

    const { workflow } = await runAnother(found, 5);
    expect(workflow.id).toBe(12);
    expect(calls[1].body).toEqual({ source: '# kept comment\nname: "writer-critic (2)"\n', name: 'writer-critic (2)', workspace_id: 5 });
    expect(calls[2].body).toEqual({ workflow_id: 12, provider: 'simulated', script: TEMPLATE.script_yaml });
  });

  it('a failure reads as the server said it', async () => {
    fakeServer({
      'GET /api/v1/templates/writer-critic': json(TEMPLATE),
      'GET /api/v1/workflows?q=writer-critic&limit=200': json([]),
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

describe('naming another copy', () => {
  it('takes the first free "(n)" from 2 on', () => {
    expect(nextFreeName('loop', ['loop'])).toBe('loop (2)');
    expect(nextFreeName('loop', ['loop', 'loop (2)', 'loop (3)'])).toBe('loop (4)');
    // A gap is filled: "(2)" was deleted.
    expect(nextFreeName('loop', ['loop', 'loop (3)'])).toBe('loop (2)');
    // Other names that look alike take nothing.
    expect(nextFreeName('loop', ['loop', 'Loop (2)', 'loop (2) (2)', 'loop(2)'])).toBe('loop (2)');
  });

  it('finds copies by exact name, the most recently updated first', () => {
    const list = [
      { id: 1, name: 'loop', version: 1, valid: true, updated_at: '2026-11-01T00:00:00Z', workspace_id: 5, workspace_name: 'Team' },
      { id: 2, name: 'loop (2)', version: 1, valid: true, updated_at: '2026-11-30T00:00:00Z', workspace_id: 5, workspace_name: 'Team' },
      { id: 3, name: 'loop', version: 1, valid: true, updated_at: '2026-11-15T00:00:00Z', workspace_id: 5, workspace_name: 'Team' },
      { id: 4, name: 'Loop', version: 1, valid: true, updated_at: '2026-11-20T00:00:00Z', workspace_id: 5, workspace_name: 'Team' },
    ];
    expect(copiesNamed('loop', list).map((w) => w.id)).toEqual([3, 1]);
  });

  it('renames the document itself, keeping comments and the rest of the text', () => {
    const yaml = '# about it\nname: writer-critic\ndescription: name: not this one\nsteps: []\n';
    expect(withName(yaml, 'writer-critic (2)')).toBe('# about it\nname: "writer-critic (2)"\ndescription: name: not this one\nsteps: []\n');
    expect(withName('name: a\n', 'say "hi" (2)')).toBe('name: "say \\"hi\\" (2)"\n');
  });
});
