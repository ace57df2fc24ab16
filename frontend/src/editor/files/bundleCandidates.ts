// Which files of a folder could be its main workflow (the server decides again; this only asks the person).
import { unzipSync } from 'fflate';
import { isLitter, type PickedFile } from './bundleZip';

const WORKFLOW = /\.(ya?ml|json)$/i;

/** Paths as the server reads them: a folder zipped whole (one top folder) is read as its contents. */
export function withoutTopFolder(paths: readonly string[]): string[] {
  const kept = paths.filter((p) => !isLitter(p));
  const tops = new Set(kept.map((p) => p.split('/')[0]));
  if (tops.size === 1 && kept.every((p) => p.includes('/'))) {
    const top = `${[...tops][0]}/`;
    return kept.map((p) => p.slice(top.length));
  }
  return kept;
}

/** Top-level workflow files: the main file is one of them. */
export function mainCandidates(paths: readonly string[]): string[] {
  return withoutTopFolder(paths)
    .filter((p) => !p.includes('/') && WORKFLOW.test(p))
    .sort();
}

/** The paths inside a zip, without reading its contents twice on the server's behalf. */
export function zipPaths(data: Uint8Array): string[] {
  // Entries are filtered before they are inflated: only the names are wanted here.
  const names: string[] = [];
  unzipSync(data, { filter: (f) => (names.push(f.name), false) });
  return names.filter((n) => !n.endsWith('/'));
}

export function pickedPaths(files: readonly PickedFile[]): string[] {
  return files.map((f) => f.path);
}
