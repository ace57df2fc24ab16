import { useState } from 'react';
import { formatBytes } from '../format/bytes';
import type { TreeFolder, TreeNode } from './fileTree';

/** Folders open at first when the whole tree is this small. */
const OPEN_UP_TO = 40;

/** A snapshot's files as foldable folders; choosing a file opens it in the viewer. */
export function FileTree({ tree, chosen, onChoose }: { tree: TreeFolder; chosen: string | null; onChoose: (path: string) => void }) {
  // Folded or unfolded by the user, by folder path; the others follow the tree's size.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const isOpen = (path: string) => toggled[path] ?? (tree.files <= OPEN_UP_TO || (chosen !== null && chosen.startsWith(`${path}/`)));
  const toggle = (path: string) => setToggled({ ...toggled, [path]: !isOpen(path) });
  if (!tree.children.length) return <p className="muted small">No files.</p>;
  return (
    <ul className="file-tree" data-testid="file-tree" aria-label="Files">
      <TreeItems nodes={tree.children} chosen={chosen} onChoose={onChoose} isOpen={isOpen} toggle={toggle} />
    </ul>
  );
}

function TreeItems({
  nodes,
  chosen,
  onChoose,
  isOpen,
  toggle,
}: {
  nodes: TreeNode[];
  chosen: string | null;
  onChoose: (path: string) => void;
  isOpen: (path: string) => boolean;
  toggle: (path: string) => void;
}) {
  return nodes.map((n) =>
    n.kind === 'folder' ? (
      <li key={n.path}>
        <button className="tree-row tree-folder" aria-expanded={isOpen(n.path)} onClick={() => toggle(n.path)} data-testid="tree-folder" data-path={n.path}>
          <span aria-hidden="true">{isOpen(n.path) ? '▾' : '▸'}</span> {n.name}/ <span className="muted small">{n.files}</span>
        </button>
        {isOpen(n.path) && (
          <ul>
            <TreeItems nodes={n.children} chosen={chosen} onChoose={onChoose} isOpen={isOpen} toggle={toggle} />
          </ul>
        )}
      </li>
    ) : n.kind === 'link' ? (
      // A link is never followed: its target is shown as written, and there is nothing to open.
      <li key={n.path}>
        <span className="tree-row tree-link" title={`${n.path} is a symbolic link to ${n.target}: never followed, so no content of it is kept`} data-testid="tree-link" data-path={n.path}>
          {n.name} <span aria-label="links to">→</span> <span className="mono tree-link-target">{n.target}</span>
        </span>
      </li>
    ) : (
      <li key={n.path}>
        <button
          className={`tree-row tree-file${n.path === chosen ? ' active' : ''}${n.stored ? '' : ' not-stored'}`}
          aria-current={n.path === chosen ? 'true' : undefined}
          onClick={() => onChoose(n.path)}
          title={n.stored ? n.path : `${n.path}: ${n.reason || 'too big to keep'}, its content cannot be shown`}
          data-testid="tree-file"
          data-path={n.path}
        >
          {n.name} <span className="muted small">{formatBytes(n.size)}</span>
        </button>
      </li>
    ),
  );
}
