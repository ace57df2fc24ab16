// The run dialog's Workspace choices as a run request: which files the run starts from, and
// which tools ask before running.
import { ApiError, errorText, type StartRunBody } from '../api/client';
import type { Run, WorkspaceUpload } from '../api/types';
import { FINAL_RUN_STATUSES } from '../api/events.gen';
import { formatBytes } from '../format/bytes';
import { when } from '../format/dates';
import { plural, shortId } from '../run/labels';

export type StartFrom = 'none' | 'upload' | 'run';

export interface WorkspaceStart {
  from: StartFrom;
  /** The zip uploaded for this run (POST /uploads' answer). */
  upload: WorkspaceUpload | null;
  uploading: boolean;
  /** The earlier run whose final files to start from. */
  runId: string;
}

export const EMPTY_START: WorkspaceStart = { from: 'none', upload: null, uploading: false, runId: '' };

type WorkspaceFields = Pick<StartRunBody, 'workspace_upload' | 'workspace_from_run' | 'ask_before'>;

/** The request's workspace fields, or what is missing before the run can start. */
export function workspaceFields(start: WorkspaceStart, askBefore: readonly string[]): { fields: WorkspaceFields } | { error: string } {
  const fields: WorkspaceFields = {};
  if (start.from === 'upload') {
    if (start.uploading) return { error: 'Wait for the zip to finish uploading.' };
    if (!start.upload) return { error: 'Choose a zip to start from, or start with no files.' };
    fields.workspace_upload = start.upload.id;
  } else if (start.from === 'run') {
    if (!start.runId) return { error: 'Choose the earlier run whose files to start from.' };
    fields.workspace_from_run = start.runId;
  }
  if (askBefore.length) fields.ask_before = [...askBefore];
  return { fields };
}

/** "12 files, 34 kB". */
export function uploadSummary(u: Pick<WorkspaceUpload, 'files' | 'bytes'>): string {
  return `${plural(u.files, 'file')}, ${formatBytes(u.bytes)}`;
}

/** Why an upload was refused: the server's words (it names a bad entry), or what a bare 413 means. */
export function uploadErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status === 413 && /^the request failed/i.test(err.message)) return 'The zip is too large for this server.';
  return errorText(err);
}

/** The runs whose final files a new run can start from: finished ones, newest first. */
export function startableRuns(runs: readonly Run[]): Run[] {
  return runs.filter((r) => (FINAL_RUN_STATUSES as readonly string[]).includes(r.status)).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/** An earlier run as an option: its date, status and short id. */
export function earlierRunLabel(r: Pick<Run, 'id' | 'status' | 'created_at'>): string {
  return `${when(r.created_at)} · ${r.status} · ${shortId(r.id)}`;
}
