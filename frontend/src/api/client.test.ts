// First: it gives Node's Request a page address before the client is made (see testServer.ts).
import { fakeServer, json, signedIn } from './testServer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ApiFieldError, api, client, multipartBody, requestJson, workspaceZipUrl } from './client';

beforeEach(() => signedIn());
afterEach(() => vi.unstubAllGlobals());

describe('the typed client', () => {
  it('builds the URL from the path and its path and query parameters, encoded', async () => {
    const calls = fakeServer(() => json({ path: 'a b/c.py', size: 1, text: 'x', truncated: false, stored: true }));
    const { data } = await client.GET('/api/v1/runs/{run_id}/workspace/snapshots/{number}/file', {
      params: { path: { run_id: 'r 1/2', number: 3 }, query: { path: 'a b/c.py' } },
    });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/v1/runs/r%201%2F2/workspace/snapshots/3/file?path=a%20b%2Fc.py']);
    expect(data?.text).toBe('x');
  });

  it('leaves out the query parameters that are not set', async () => {
    const calls = fakeServer(() => json([]));
    await client.GET('/api/v1/runs/{run_id}/iterations', { params: { path: { run_id: 'r1' }, query: { step: 'each', index: undefined, iteration: 0 } } });
    expect(calls[0].url).toBe('/api/v1/runs/r1/iterations?step=each&iteration=0');
  });

  it('checks paths, parameters and bodies against the OpenAPI document (npm run typecheck fails if these compile)', () => {
    const unchecked = () => {
      // @ts-expect-error: the API has no such path.
      void client.GET('/api/v1/no-such-path');
      // @ts-expect-error: the run's id is a path parameter it needs.
      void client.GET('/api/v1/runs/{run_id}', { params: { path: {} } });
      // @ts-expect-error: a workflow's id is a number.
      void client.GET('/api/v1/workflows/{workflow_id}', { params: { path: { workflow_id: 'seven' } } });
      // @ts-expect-error: POST /runs needs the workflow.
      void client.POST('/api/v1/runs', { body: { provider: 'simulated' } });
      // @ts-expect-error: the upload's form calls its file `file`.
      void multipartBody('/api/v1/uploads', { zip: new File([], 'w.zip') });
      // @ts-expect-error: POST /workflows takes JSON, not a form.
      void multipartBody('/api/v1/workflows', { file: new File([], 'x.yaml') });
    };
    expect(unchecked).toBeTypeOf('function');
  });

  it("sends a form as its path declares it: the file with its name, the other fields as text", async () => {
    const calls = fakeServer(() => json({ workflows: [], skipped: {} }, 201));
    const form = multipartBody('/api/v1/workflows/import-bundle', { file: new File(['PK'], 'flows.zip'), main: 'main.yaml', workspace: 4 });
    await client.POST('/api/v1/workflows/import-bundle', form);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/v1/workflows/import-bundle', body: { main: 'main.yaml', workspace: '4' } });
    expect((calls[0].form?.get('file') as File).name).toBe('flows.zip');
  });

  it('sends the session: same-origin credentials, JSON wanted, the CSRF token on writes only', async () => {
    const calls = fakeServer(() => json({ username: 'ada' }));
    await api.me();
    await api.renameWorkspace(4, 'Team');
    expect(calls.map((c) => c.credentials)).toEqual(['same-origin', 'same-origin']);
    expect(calls.map((c) => c.headers.get('Accept'))).toEqual(['application/json', 'application/json']);
    expect(calls.map((c) => c.headers.get('X-CSRFToken'))).toEqual([null, 'abc']);
    expect(calls[1]).toMatchObject({ method: 'PATCH', url: '/api/v1/workspaces/4', body: { name: 'Team' } });
    expect(calls[1].headers.get('Content-Type')).toBe('application/json');
  });

  it('keeps the escape hatch on the same session and errors', async () => {
    const calls = fakeServer(() => json({ detail: 'no' }, 403));
    const err = await requestJson('PUT', '/workflows/3/file?x=1', { path: 'a' }).catch((e: unknown) => e);
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/v1/workflows/3/file?x=1', body: { path: 'a' } });
    expect(calls[0].headers.get('X-CSRFToken')).toBe('abc');
    expect(err).toMatchObject({ status: 403, message: 'no' });
  });
});

describe('what goes wrong', () => {
  it('sends the user to sign in on a 401, back to where they were', async () => {
    const assign = vi.fn();
    signedIn({ pathname: '/runs', search: '?status=failed', assign });
    fakeServer(() => json({ detail: 'Unauthorized' }, 401));
    const err = await api.getRun('r1').catch((e: unknown) => e);
    expect(assign).toHaveBeenCalledWith('/login/?next=%2Fruns%3Fstatus%3Dfailed');
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, message: 'Your session has ended. Please sign in again.' });
  });

  it('says the server cannot be reached when the request fails', async () => {
    fakeServer(() => {
      throw new TypeError('fetch failed');
    });
    const err = await api.workspaces().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, message: 'Cannot reach the server. Check that it is running, then try again.' });
  });

  it('gives an abort back as it is', async () => {
    fakeServer(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const err = await api.eventPage('r1', { after: 0 }, new AbortController().signal).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ name: 'AbortError' });
  });

  it('keeps field, line and diagnostics of an error that names them', async () => {
    const diagnostics = [{ code: 'yaml', class: 'parse', severity: 'error', path: '', message: 'bad indent', line: 3, column: 1 }];
    fakeServer(() => json({ detail: 'not a workflow document', field: '/steps/0', line: 3, diagnostics }, 422));
    const err = await api.importFile(new File(['x'], 'x.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiFieldError);
    expect(err).toMatchObject({ status: 422, message: 'not a workflow document', field: '/steps/0', line: 3, diagnostics });
  });

  it('keeps the diagnostics of an error without a field', async () => {
    const diagnostics = [{ code: 'missing_dep', class: 'schema', severity: 'error', path: '/steps/1', message: 'no such step', line: null, column: null }];
    fakeServer(() => json({ detail: [{ msg: 'field required', loc: ['body', 'source'] }], diagnostics }, 422));
    const err = await api.createWorkflow({ source: '' }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ApiFieldError);
    expect(err).toMatchObject({ status: 422, message: 'source: field required', diagnostics });
  });

  it('reads a 429: its detail, which limit, and the wait', async () => {
    fakeServer(() => json({ detail: "this workspace's limit of 5 runs a day is used up", limit: 'runs_per_day', retryAfterSeconds: 3600 }, 429, { 'Retry-After': '3600' }));
    const err = await api.startRun({ workflow_id: 1, provider: 'simulated' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, message: "this workspace's limit of 5 runs a day is used up", limit: 'runs_per_day', retryAfterSeconds: 3600 });
  });

  it("takes a 429's wait from Retry-After when the body does not say it", async () => {
    fakeServer(() => json({ detail: 'too many requests' }, 429, { 'Retry-After': '30' }));
    const err = await api.validate({ source: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryAfterSeconds: 30, limit: null });
  });

  it('keeps a 403 detail as the message, and words a bare status', async () => {
    const detail = 'your role in this workspace is viewer: it cannot edit workflows (that needs editor or above)';
    fakeServer(() => json({ detail }, 403));
    const err = await api.saveWorkflow(1, { source: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, message: detail, retryAfterSeconds: null });
    fakeServer(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    expect(await api.getWorkflow(1).catch((e: unknown) => e)).toMatchObject({ status: 502, message: 'The server failed (HTTP 502). Try again in a moment.' });
  });
});

describe('the api client and workspaces', () => {
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

  it('asks for a page of a list and reads its total and cursor from the headers', async () => {
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

  it("encodes a time zone's + (a bare one reads as a space on the server)", async () => {
    const calls = fakeServer(() => json([]));
    await api.runPage({ createdAfter: '2026-11-21T00:00:00+01:00', providers: ['openai', 'anthropic'] });
    expect(calls[0].url).toBe('/api/v1/runs?provider=openai%2Canthropic&created_after=2026-11-21T00%3A00%3A00%2B01%3A00');
  });

  it('imports into the workspace named, or into the workflow named, as multipart form data', async () => {
    const calls = fakeServer(() => json({ id: 1 }, 201));
    const file = new File(['name: x\n'], 'x.yaml');
    await api.importFile(file, undefined, 4);
    await api.importFile(file, 8, 4);
    expect(calls[0].body).toMatchObject({ workspace: '4' });
    expect(calls[1].body).toMatchObject({ into: '8' });
    expect(calls[1].body).not.toHaveProperty('workspace');
    expect((calls[0].form?.get('file') as File).name).toBe('x.yaml');
  });

  it('pages events and asks for one item or round of a loop', async () => {
    const calls = fakeServer(() => json([]));
    await api.eventPage('r1', { before: 901, limit: 200 });
    await api.eventPage('r1', { after: 700, limit: 200, types: ['step_end', 'iteration_end'], step: 'each loop' });
    await api.loopIteration('r1', 'each', { index: 12 });
    await api.loopIteration('r1', 'refine', { iteration: 0 });
    await api.runEvents('r1', 40);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/runs/r1/events?after=0&limit=200&before=901',
      '/api/v1/runs/r1/events?after=700&limit=200&type=step_end%2Citeration_end&step=each%20loop',
      '/api/v1/runs/r1/iterations?step=each&index=12',
      '/api/v1/runs/r1/iterations?step=refine&iteration=0',
      '/api/v1/runs/r1/events?after=40',
    ]);
  });

  it('answers undefined for a 204, with the CSRF token sent', async () => {
    const calls = fakeServer(() => new Response(null, { status: 204 }));
    expect(await api.deleteWorkflow(3)).toBeUndefined();
    expect(await api.deleteWorkspaceKey(4, 'openai')).toBeUndefined();
    expect(calls.map((c) => `${c.method} ${c.url} ${c.headers.get('X-CSRFToken')}`)).toEqual([
      'DELETE /api/v1/workflows/3 abc',
      'DELETE /api/v1/workspaces/4/keys/openai abc',
    ]);
  });
});

describe('the api client and run workspaces', () => {
  it('reads the tools, the workspace, its files, a file and a diff at their addresses', async () => {
    const calls = fakeServer(() => json({}));
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
    const calls = fakeServer(() => json({ status: 'approved' }));
    await api.approveToolCall('r-1', 'call_7');
    await api.denyToolCall('r-1', 'call_8', 'not that file');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/runs/r-1/tool-calls/call_7/approve', 'POST /api/v1/runs/r-1/tool-calls/call_8/deny']);
    expect(calls[0].body).toBeUndefined();
    expect(calls[1].body).toEqual({ reason: 'not that file' });
    expect(calls.every((c) => c.headers.get('X-CSRFToken') === 'abc')).toBe(true);
  });

  it('says why a decision was refused (409)', async () => {
    fakeServer(() => json({ detail: 'this call was already decided' }, 409));
    const err = await api.approveToolCall('r-1', 'call_7').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409, message: 'this call was already decided' });
  });

  it('uploads a zip as multipart form data, leaving its content type to the browser', async () => {
    const calls = fakeServer(() => json({ id: 'u1', files: 2, bytes: 10, names: ['a', 'b'] }, 201));
    const up = await api.uploadWorkspace(new File(['PK'], 'w.zip'));
    expect(up.id).toBe('u1');
    expect(calls[0].url).toBe('/api/v1/uploads');
    expect(calls[0].form?.get('file')).toBeInstanceOf(File);
    // Not JSON: the form's own type, with the boundary the browser (here: Request) chose.
    expect(calls[0].headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(calls[0].headers.get('X-CSRFToken')).toBe('abc');
  });

  it("names the bad entry of a refused zip (the server's detail)", async () => {
    fakeServer(() => json({ detail: "entry '../x' points outside the workspace" }, 400));
    const err = await api.uploadWorkspace(new File(['PK'], 'w.zip')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: "entry '../x' points outside the workspace" });
  });
});
