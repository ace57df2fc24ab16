// A workflow's folder over HTTP (designer/folder_api.py): list, read, write, rename, delete, import, export.
// Typed calls: the paths, their parameters and answers are the OpenAPI document's (api/openapi.gen.ts).
import { answer, API, client, multipartBody } from '../../api/client';
import type { Narrowed } from '../../api/types';
import type { BundleImportOut, FileIn, FileWrittenOut, FolderFileChangeOut, FolderFileContentOut, FolderFileOut, IncludeTargetOut } from '../../api/openapi.gen';

/** A file of the folder; `main`: the workflow's own document (edited on the canvas and in the YAML view, not here). */
export type FolderFile = FolderFileOut;
/** A file's text (null: a binary file, an image, a PDF), cut at 512 KiB. */
export type FileContent = FolderFileContentOut;
/** The new version a write, rename or delete made. */
export type FolderSaved = FileWrittenOut;
export type BundleImported = BundleImportOut;
/** A folder file that differs between two versions, with both texts (null where absent or binary). */
export type FolderFileChange = FolderFileChangeOut;
/**
 * What an include step runs: a file of the folder, a saved workflow (and its version), or nothing yet. Override:
 * the server declares `step` any value; it is the step's `id` as the document has it (null: it has none).
 */
export type IncludeTarget = Narrowed<IncludeTargetOut, { step: string | null }>;

const base = (id: number) => `/workflows/${id}`;
/** A version's folder, or the latest's (absent). */
const at = (version?: number) => version || undefined;

const write = (id: number, body: FileIn): Promise<FolderSaved> =>
  answer(client.PUT('/api/v1/workflows/{workflow_id}/file', { params: { path: { workflow_id: id } }, body }));

export const folderApi = {
  list: (id: number, version?: number): Promise<FolderFile[]> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/files', { params: { path: { workflow_id: id }, query: { version: at(version) } } })),
  read: (id: number, path: string, version?: number): Promise<FileContent> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/file', { params: { path: { workflow_id: id }, query: { path, version: at(version) } } })),
  writeText: (id: number, path: string, text: string) => write(id, { path, text }),
  writeBytes: (id: number, path: string, base64: string) => write(id, { path, base64 }),
  rename: (id: number, path: string, to: string) => write(id, { path, rename_to: to }),
  remove: (id: number, path: string) => write(id, { path, delete: true }),
  /** The folder files (not the main document) that differ from version `a` to version `b`. */
  changes: (id: number, a: number, b: number): Promise<FolderFileChange[]> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/files/changes', { params: { path: { workflow_id: id }, query: { a, b } } })),
  /** For each include step of the version: what it runs. */
  includes: (id: number, version?: number) =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/includes', { params: { path: { workflow_id: id }, query: { version: at(version) } } })) as Promise<IncludeTarget[]>,
  /** A zip of a folder made workflows: `main` the main file (`*`: one per top-level workflow), in `workspace` (absent: the personal one). */
  importBundle: (zip: File, main: string, workspace?: number | null): Promise<BundleImported> =>
    answer(client.POST('/api/v1/workflows/import-bundle', multipartBody('/api/v1/workflows/import-bundle', { file: zip, main, workspace: workspace || undefined }))),
};

/** Where the folder downloads as a zip upstream's CLI runs as it is. */
export function bundleZipUrl(id: number, version?: number): string {
  return `${API}${base(id)}/bundle.zip${version ? `?version=${version}` : ''}`;
}

/** A file's bytes as base64, for binary uploads (images, PDFs). */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
