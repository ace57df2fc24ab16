// POST /api/v1/import (docs/api.md): translate a Runsight workflow or a Coqui
// loop definition into a zenflow document. Nothing is saved; "Open in editor"
// then saves the answer's YAML with POST /api/v1/workflows.
import { answer, api, client } from '../api/client';
import type { ImportIn, ImportOut, ReportEntryOut } from '../api/openapi.gen';
import type { Diag, Narrowed, Workflow } from '../api/types';
import type { WorkflowDoc } from '../doc/types';

/** What is asked: the kind of file, its text and the Coqui parameters. */
export type ImportRequest = ImportIn;
export type ImportKind = ImportIn['kind'];

/** One field of the source file (`field`, a JSON-pointer-like path) and where it went in the document (`target`, a JSON pointer). */
export type ReportEntry = ReportEntryOut;
export type Outcome = ReportEntry['outcome'];

/**
 * The translation; `notes` are the importer's own warnings (behaviour that differs after import). Override: the
 * server declares the document, the diagnostics and the counts open dicts; they are the translated workflow
 * document, the validator's diagnostics and a count per outcome.
 */
export type ImportAnswer = Narrowed<ImportOut, { document: WorkflowDoc; errors: Diag[]; warnings: Diag[]; counts: Partial<Record<Outcome, number>> }>;

export function importOther(body: ImportRequest, signal?: AbortSignal): Promise<ImportAnswer> {
  return answer(client.POST('/api/v1/import', { body, signal })) as Promise<ImportAnswer>;
}

/** Saves the translated document as a new workflow (its YAML, so the editor shows the same text), in `workspace` (absent: the personal one). */
export function saveImported(answer: Pick<ImportAnswer, 'yaml'>, workspace?: number | null): Promise<Workflow> {
  return api.createWorkflow({ source: answer.yaml, ...(workspace ? { workspace_id: workspace } : {}) });
}
