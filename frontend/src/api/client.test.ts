import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './client';

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

  it('keeps a 403 detail as the message', async () => {
    const detail = 'your role in this workspace is viewer: it cannot edit workflows (that needs editor or above)';
    fakeServer(() => json({ detail }, 403));
    const err = await api.saveWorkflow(1, { source: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, message: detail, retryAfterSeconds: null });
  });
});
