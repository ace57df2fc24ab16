// A snapshot's flat file list as nested folders, for the workspace's file tree.
import type { SnapshotFile } from '../api/types';

export interface TreeFile {
  kind: 'file';
  name: string;
  path: string;
  size: number;
  stored: boolean;
  /** Why its content was not kept, in words ('' when stored). */
  reason?: string;
}

export interface TreeFolder {
  kind: 'folder';
  /** '' for the root. */
  name: string;
  path: string;
  children: TreeNode[];
  /** Files anywhere below. */
  files: number;
}

export type TreeNode = TreeFile | TreeFolder;

function byName(a: TreeNode, b: TreeNode): number {
  if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sortTree(folder: TreeFolder): void {
  folder.children.sort(byName);
  for (const c of folder.children) if (c.kind === 'folder') sortTree(c);
}

/** Folders first, then files, each by name; empty path parts (`a//b`, a leading `/`) are skipped. */
export function buildTree(files: readonly SnapshotFile[]): TreeFolder {
  const root: TreeFolder = { kind: 'folder', name: '', path: '', children: [], files: 0 };
  const folders = new Map<string, TreeFolder>([['', root]]);
  for (const f of files) {
    const parts = f.path.split('/').filter(Boolean);
    if (!parts.length) continue;
    let parent = root;
    root.files++;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join('/');
      let folder = folders.get(path);
      if (!folder) {
        folder = { kind: 'folder', name: parts[i], path, children: [], files: 0 };
        folders.set(path, folder);
        parent.children.push(folder);
      }
      folder.files++;
      parent = folder;
    }
    parent.children.push({ kind: 'file', name: parts[parts.length - 1], path: f.path, size: f.size, stored: f.stored, ...(f.reason ? { reason: f.reason } : {}) });
  }
  sortTree(root);
  return root;
}

/** The folders that hold a path ("a/b/c.txt": "a", "a/b"), to unfold them when the file is chosen. */
export function foldersAbove(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
