// A snapshot's flat file list as nested folders, for the workspace's file tree; its symbolic links sit
// among the files as links (their targets shown as written, never followed: no content of theirs is kept).
import type { SnapshotFile, WorkspaceLink } from '../api/types';

export interface TreeFile {
  kind: 'file';
  name: string;
  path: string;
  size: number;
  stored: boolean;
  /** Why its content was not kept, in words ('' when stored). */
  reason?: string;
}

export interface TreeLink {
  kind: 'link';
  name: string;
  path: string;
  /** Where the link points, as the link says it (untrusted text). */
  target: string;
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

export type TreeNode = TreeFile | TreeLink | TreeFolder;

function byName(a: TreeNode, b: TreeNode): number {
  if ((a.kind === 'folder') !== (b.kind === 'folder')) return a.kind === 'folder' ? -1 : 1;
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sortTree(folder: TreeFolder): void {
  folder.children.sort(byName);
  for (const c of folder.children) if (c.kind === 'folder') sortTree(c);
}

/** Folders first, then files and links, each by name; empty path parts (`a//b`, a leading `/`) are skipped. */
export function buildTree(files: readonly SnapshotFile[], links: readonly WorkspaceLink[] = []): TreeFolder {
  const root: TreeFolder = { kind: 'folder', name: '', path: '', children: [], files: 0 };
  const folders = new Map<string, TreeFolder>([['', root]]);
  /** The folder a path's last part goes in (made as needed), counting it as a file below each when `count`. */
  const folderOf = (parts: string[], count: boolean): TreeFolder => {
    let parent = root;
    if (count) root.files++;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join('/');
      let folder = folders.get(path);
      if (!folder) {
        folder = { kind: 'folder', name: parts[i], path, children: [], files: 0 };
        folders.set(path, folder);
        parent.children.push(folder);
      }
      if (count) folder.files++;
      parent = folder;
    }
    return parent;
  };
  for (const f of files) {
    const parts = f.path.split('/').filter(Boolean);
    if (!parts.length) continue;
    folderOf(parts, true).children.push({ kind: 'file', name: parts[parts.length - 1], path: f.path, size: f.size, stored: f.stored, ...(f.reason ? { reason: f.reason } : {}) });
  }
  for (const l of links) {
    const parts = l.path.split('/').filter(Boolean);
    if (!parts.length) continue;
    folderOf(parts, false).children.push({ kind: 'link', name: parts[parts.length - 1], path: l.path, target: l.target });
  }
  sortTree(root);
  return root;
}

/** The folders that hold a path ("a/b/c.txt": "a", "a/b"), to unfold them when the file is chosen. */
export function foldersAbove(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
