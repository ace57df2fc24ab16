// POST /api/v1/import (docs/api.md): translate a Runsight workflow or a Coqui
// loop definition into a zenflow document. Nothing is saved; "Open in editor"
// then saves the answer's YAML with POST /api/v1/workflows.
import { api, requestJson } from '../api/client';
import type { Diag, Workflow } from '../api/types';
import type { WorkflowDoc } from '../doc/types';

export type ImportKind = 'runsight' | 'coqui';
export type Outcome = 'carried' | 'approximated' | 'dropped';

export interface ReportEntry {
  /** Where in the source file (a JSON-pointer-like path). */
  field: string;
  outcome: Outcome;
  /** Where in the zenflow document (a JSON pointer), when it went somewhere. */
  target: string | null;
  note: string;
}

export interface ImportRequest {
  kind: ImportKind;
  source: string;
  parameters?: Record<string, string>;
}

export interface ImportAnswer {
  kind: string;
  document: WorkflowDoc;
  yaml: string;
  valid: boolean;
  errors: Diag[];
  warnings: Diag[];
  report: ReportEntry[];
  counts: Partial<Record<Outcome, number>>;
  /** The importer's own warnings (behaviour that differs after import). */
  notes: string[];
}

export function importOther(body: ImportRequest, signal?: AbortSignal): Promise<ImportAnswer> {
  return requestJson<ImportAnswer>('POST', '/import', body, signal);
}

/** Saves the translated document as a new workflow (its YAML, so the editor shows the same text), in `workspace` (absent: the personal one). */
export function saveImported(answer: Pick<ImportAnswer, 'yaml'>, workspace?: number | null): Promise<Workflow> {
  return api.createWorkflow({ source: answer.yaml, ...(workspace ? { workspace_id: workspace } : {}) });
}
