// A workflow's folder over HTTP (designer/folder_api.py): list, read, write, rename, delete, import, export.
import { API, requestJson } from '../../api/client';

export interface FolderFile {
  path: string;
  size: number;
  /** The workflow's own document (edited on the canvas and in the YAML view, not here). */
  main: boolean;
}

export interface FileContent {
  path: string;
  size: number;
  /** null: a binary file (an image, a PDF). */
  text: string | null;
  truncated: boolean;
}

export interface FolderSaved {
  version: number;
  valid: boolean;
  files: FolderFile[];
}

export interface BundleImported {
  workflows: { id: number; name: string; version: number; valid: boolean; main_path: string; files: number }[];
  skipped: Record<string, string>;
}

const base = (id: number) => `/workflows/${id}`;

export const folderApi = {
  list: (id: number, version?: number) => requestJson<FolderFile[]>('GET', `${base(id)}/files${version ? `?version=${version}` : ''}`),
  read: (id: number, path: string, version?: number) =>
    requestJson<FileContent>('GET', `${base(id)}/file?path=${encodeURIComponent(path)}${version ? `&version=${version}` : ''}`),
  writeText: (id: number, path: string, text: string) => requestJson<FolderSaved>('PUT', `${base(id)}/file`, { path, text }),
  writeBytes: (id: number, path: string, base64: string) => requestJson<FolderSaved>('PUT', `${base(id)}/file`, { path, base64 }),
  rename: (id: number, path: string, to: string) => requestJson<FolderSaved>('PUT', `${base(id)}/file`, { path, rename_to: to }),
  remove: (id: number, path: string) => requestJson<FolderSaved>('PUT', `${base(id)}/file`, { path, delete: true }),
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
