import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import type { Run } from '../api/types';
import { EMPTY_START, earlierRunLabel, startableRuns, uploadErrorText, uploadSummary, workspaceFields } from './runWorkspace';

const upload = { id: 'up-1', files: 12, bytes: 34_000, names: [] };

describe('workspaceFields', () => {
  it('sends nothing for no files and no gated tools', () => {
    expect(workspaceFields(EMPTY_START, [])).toEqual({ fields: {} });
  });

  it('sends the upload, or the earlier run, and the gated tools', () => {
    expect(workspaceFields({ ...EMPTY_START, from: 'upload', upload }, ['bash'])).toEqual({ fields: { workspace_upload: 'up-1', ask_before: ['bash'] } });
    expect(workspaceFields({ ...EMPTY_START, from: 'run', runId: 'r-9', upload }, [])).toEqual({ fields: { workspace_from_run: 'r-9' } });
  });

  it('says what is missing before the run can start', () => {
    expect(workspaceFields({ ...EMPTY_START, from: 'upload' }, [])).toEqual({ error: 'Choose a zip to start from, or start with no files.' });
    expect(workspaceFields({ ...EMPTY_START, from: 'upload', upload, uploading: true }, [])).toEqual({ error: 'Wait for the zip to finish uploading.' });
    expect(workspaceFields({ ...EMPTY_START, from: 'run' }, [])).toEqual({ error: 'Choose the earlier run whose files to start from.' });
  });
});

describe('uploads', () => {
  it('sums an upload up', () => {
    expect(uploadSummary(upload)).toBe('12 files, 34 kB');
    expect(uploadSummary({ files: 1, bytes: 10 })).toBe('1 file, 10 B');
  });

  it("gives the server's reason, and words for a bare 413", () => {
    expect(uploadErrorText(new ApiError(400, "entry '../x' points outside the workspace"))).toBe("entry '../x' points outside the workspace");
    expect(uploadErrorText(new ApiError(413, 'The request failed (HTTP 413).'))).toBe('The zip is too large for this server.');
    expect(uploadErrorText(new ApiError(413, 'at most 50 MB'))).toBe('at most 50 MB');
  });
});

describe('earlier runs', () => {
  const run = (id: string, status: Run['status'], created_at: string) => ({ id, status, created_at }) as Run;

  it('offers finished runs, newest first', () => {
    const runs = [run('a', 'completed', '2026-01-01T10:00:00Z'), run('b', 'running', '2026-01-03T10:00:00Z'), run('c', 'failed', '2026-01-02T10:00:00Z')];
    expect(startableRuns(runs).map((r) => r.id)).toEqual(['c', 'a']);
  });

  it('names a run by date, status and short id', () => {
    const label = earlierRunLabel(run('0f3a9c21-aaaa-bbbb-cccc-dddddddddddd', 'completed', '2026-01-01T10:00:00Z'));
    expect(label).toMatch(/2026.* · completed · #0f3a9c21$/);
  });
});
