import { beforeEach, describe, expect, it, vi } from 'vitest';

const list = vi.fn();
const request = vi.fn();
vi.mock('./folderApi', () => ({ folderApi: { list: (...a: unknown[]) => list(...a), includes: (...a: unknown[]) => request(...a) } }));
vi.mock('../../api/client', () => ({ api: {}, errorText: String }));

const { resolveInclude } = await import('./includeLookup');

const files = [
  { path: 'flows/main.yaml', size: 10, main: true },
  { path: 'flows/workflows/deploy.yaml', size: 10, main: false },
  { path: 'flows/workflows/checks/smoke.yaml', size: 10, main: false },
];

describe('resolveInclude', () => {
  let version = 0;
  beforeEach(() => {
    version += 1; // a new version each test: nothing comes from the cache of another
    list.mockReset().mockResolvedValue(files);
    request.mockReset().mockResolvedValue([{ path: '/steps/1', step: 'review', ref: 'review', kind: 'saved', workflow_id: 7, name: 'review' }]);
  });

  it('finds a named include in the folder, relative to the main file', async () => {
    const scope = { workflowId: 1, version, baseFile: null, includes: { deploy: 'workflows/deploy.yaml' } };
    expect(await resolveInclude(scope, { id: 'ship', include: 'deploy' })).toEqual({ kind: 'file', file: 'flows/workflows/deploy.yaml' });
  });

  it('reads an include inside an included file relative to that file', async () => {
    const scope = { workflowId: 1, version, baseFile: 'flows/workflows/deploy.yaml', includes: undefined };
    expect(await resolveInclude(scope, { id: 'smoke', include: 'checks/smoke.yaml' })).toEqual({ kind: 'file', file: 'flows/workflows/checks/smoke.yaml' });
  });

  it('falls back to a saved workflow for the main file only, and says what is missing', async () => {
    const main = { workflowId: 1, version, baseFile: null, includes: undefined };
    expect(await resolveInclude(main, { id: 'review', include: 'review' })).toEqual({ kind: 'saved', workflowId: 7, name: 'review' });
    const inner = { ...main, baseFile: 'flows/workflows/deploy.yaml' };
    expect(await resolveInclude(inner, { id: 'review', include: 'review' })).toEqual({ kind: 'missing', message: "No file flows/workflows/review in the workflow's folder." });
    expect(await resolveInclude(main, { id: 'x', include: '../../etc/passwd' })).toEqual({ kind: 'missing', message: "../../etc/passwd is outside the workflow's folder." });
  });
});
