import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, workspaceZipUrl } from './client';

type Call = { url: string; method: string; body: unknown };

function fakeServer(answer: (call: Call) => Response): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call = { url, method: init.method ?? 'GET', body: init.body instanceof FormData ? Object.fromEntries(init.body) : init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers });

describe('the api client and workspaces', () => {
  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'csrftoken=abc' });
    vi.stubGlobal('window', { location: { pathname: '/', search: '', assign: () => undefined } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('scopes lists to a workspace when one is given', async () => {
    const calls = fakeServer(() => json([]));
    await api.listWorkflows(4);
    await api.listWorkflows();
    await api.listRuns(undefined, 4);
    await api.listRuns(9, 4);
    await api.listRuns(9);
    await api.providers(4);
    await api.providers();
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/workflows?workspace=4',
      '/api/v1/workflows',
      '/api/v1/runs?workspace=4',
      '/api/v1/runs?workspace=4&workflow=9',
      '/api/v1/runs?workflow=9',
      '/api/v1/providers?workspace=4',
      '/api/v1/providers',
    ]);
  });

  it('asks for a page of a list and reads its total and cursor', async () => {
    const calls = fakeServer((call) =>
      call.url.startsWith('/api/v1/runs')
        ? json([{ id: 'r1' }], 200, { 'X-Total-Count': '120', 'X-Next-Cursor': 'next-1' })
        : json([{ id: 7 }], 200, { 'X-Total-Count': '3' }),
    );
    const workflows = await api.workflowPage({ workspace: 4, q: 'review', valid: true, limit: 50, offset: 50 });
    const runs = await api.runPage({ statuses: ['failed', 'cancelled'], q: 'deploy', limit: 50, before: 'c0' });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/workflows?workspace=4&q=review&valid=true&limit=50&offset=50',
      '/api/v1/runs?q=deploy&status=failed%2Ccancelled&limit=50&before=c0',
    ]);
    expect(workflows).toEqual({ items: [{ id: 7 }], total: 3, next: null });
    expect(runs).toEqual({ items: [{ id: 'r1' }], total: 120, next: 'next-1' });
  });

  it('imports into the workspace named, or into the workflow named', async () => {
    const calls = fakeServer(() => json({ id: 1 }, 201));
    const file = new File(['name: x\n'], 'x.yaml');
    await api.importFile(file, undefined, 4);
    await api.importFile(file, 8, 4);
    expect(calls[0].body).toMatchObject({ workspace: '4' });
    expect(calls[1].body).toMatchObject({ into: '8' });
    expect(calls[1].body).not.toHaveProperty('workspace');
  });

  it('reads a 429: its detail, which limit, and the wait', async () => {
    fakeServer(() => json({ detail: "this workspace's limit of 5 runs a day is used up", limit: 'runs_per_day', retryAfterSeconds: 3600 }, 429, { 'Retry-After': '3600' }));
    const err = await api.startRun({ workflow_id: 1, provider: 'simulated' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, message: "this workspace's limit of 5 runs a day is used up", limit: 'runs_per_day', retryAfterSeconds: 3600 });
  });

  it('pages events and asks for one item or round of a loop', async () => {
    const calls = fakeServer(() => json([]));
    await api.eventPage('r1', { before: 901, limit: 200 });
    await api.eventPage('r1', { after: 700, limit: 200, types: ['step_end', 'iteration_end'], step: 'each loop' });
    await api.loopIteration('r1', 'each', { index: 12 });
    await api.loopIteration('r1', 'refine', { iteration: 0 });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/runs/r1/events?after=0&limit=200&before=901',
      '/api/v1/runs/r1/events?after=700&limit=200&type=step_end,iteration_end&step=each%20loop',
      '/api/v1/runs/r1/iterations?step=each&index=12',
      '/api/v1/runs/r1/iterations?step=refine&iteration=0',
    ]);
  });

  it('keeps a 403 detail as the message', async () => {
    const detail = 'your role in this workspace is viewer: it cannot edit workflows (that needs editor or above)';
    fakeServer(() => json({ detail }, 403));
    const err = await api.saveWorkflow(1, { source: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, message: detail, retryAfterSeconds: null });
  });
});

describe('the api client and run workspaces', () => {
  let calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[];
  const answer = (body: unknown, status = 200) => {
    calls = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>, body: init.body });
      return json(body, status);
    });
  };
  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'csrftoken=abc' });
    vi.stubGlobal('window', { location: { pathname: '/', search: '', assign: () => undefined } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads the tools, the workspace, its files, a file and a diff at their addresses', async () => {
    answer({});
    await api.tools();
    await api.runWorkspace('r-1');
    await api.snapshotFiles('r-1', 3);
    await api.snapshotFile('r-1', 3, 'src/a b.py');
    await api.snapshotDiff('r-1', 3);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/v1/tools',
      'GET /api/v1/runs/r-1/workspace',
      'GET /api/v1/runs/r-1/workspace/snapshots/3/files',
      'GET /api/v1/runs/r-1/workspace/snapshots/3/file?path=src%2Fa%20b.py',
      'GET /api/v1/runs/r-1/workspace/snapshots/3/diff',
    ]);
    expect(workspaceZipUrl('r-1')).toBe('/api/v1/runs/r-1/workspace.zip');
  });

  it('approves without a body and denies with the reason, sending the CSRF token', async () => {
    answer({ status: 'approved' });
    await api.approveToolCall('r-1', 'call_7');
    await api.denyToolCall('r-1', 'call_8', 'not that file');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/runs/r-1/tool-calls/call_7/approve', 'POST /api/v1/runs/r-1/tool-calls/call_8/deny']);
    expect(calls[0].body).toBeUndefined();
    expect(JSON.parse(String(calls[1].body))).toEqual({ reason: 'not that file' });
    expect(calls.every((c) => c.headers['X-CSRFToken'] === 'abc')).toBe(true);
  });

  it('says why a decision was refused (409)', async () => {
    answer({ detail: 'this call was already decided' }, 409);
    const err = await api.approveToolCall('r-1', 'call_7').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409, message: 'this call was already decided' });
  });

  it('uploads a zip as multipart form data, leaving its content type to the browser', async () => {
    answer({ id: 'u1', files: 2, bytes: 10, names: ['a', 'b'] }, 201);
    const up = await api.uploadWorkspace(new File(['PK'], 'w.zip'));
    expect(up.id).toBe('u1');
    expect(calls[0].url).toBe('/api/v1/uploads');
    expect(calls[0].body).toBeInstanceOf(FormData);
    expect((calls[0].body as FormData).get('file')).toBeInstanceOf(File);
    expect(calls[0].headers['Content-Type']).toBeUndefined();
    expect(calls[0].headers['X-CSRFToken']).toBe('abc');
  });

  it("names the bad entry of a refused zip (the server's detail)", async () => {
    answer({ detail: "entry '../x' points outside the workspace" }, 400);
    const err = await api.uploadWorkspace(new File(['PK'], 'w.zip')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: "entry '../x' points outside the workspace" });
  });
});
