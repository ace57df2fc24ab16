// A dropped or chosen folder as one zip, so the server reads folders and zips by one set of rules.
import { zipSync } from 'fflate';

export interface PickedFile {
  /** Relative to the folder picked or dropped, with "/" between parts. */
  path: string;
  data: Uint8Array;
}

/** Files a folder holds that are not the workflow's: version control, editors, operating systems. */
export function isLitter(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part === '__MACOSX' || part === 'node_modules');
}

export function zipFiles(files: readonly PickedFile[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) if (!isLitter(f.path)) entries[f.path] = f.data;
  return zipSync(entries, { level: 6 });
}

/** Every file under a dropped directory entry (the browser's File and Directory Entries API), with its path. */
export async function filesOfEntry(entry: FileSystemEntry, prefix = ''): Promise<PickedFile[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [{ path: prefix + entry.name, data: new Uint8Array(await file.arrayBuffer()) }];
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries answers in batches (about 100 at a time in Chromium) until it answers with none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.map((c) => filesOfEntry(c, `${prefix}${entry.name}/`)));
  return nested.flat();
}

/** Files chosen with a folder picker (`webkitdirectory`): their paths are relative to the folder's parent. */
export async function filesOfPicked(list: FileList): Promise<PickedFile[]> {
  return Promise.all(
    Array.from(list).map(async (f) => ({ path: f.webkitRelativePath || f.name, data: new Uint8Array(await f.arrayBuffer()) })),
  );
}
