import { describe, expect, it } from 'vitest';
import { buildTree, foldersAbove, type TreeNode } from './fileTree';

const file = (path: string, size = 1, stored = true, reason = '') => ({ path, size, stored, reason });

/** The tree as indented lines, to compare at a glance. */
function lines(nodes: TreeNode[], depth = 0): string[] {
  return nodes.flatMap((n) =>
    n.kind === 'folder'
      ? [`${'  '.repeat(depth)}${n.name}/ (${n.files})`, ...lines(n.children, depth + 1)]
      : [`${'  '.repeat(depth)}${n.name}${n.kind === 'link' ? ` -> ${n.target}` : ''}`],
  );
}

describe('buildTree', () => {
  it('nests paths in folders, folders first, then by name', () => {
    const tree = buildTree([file('src/b.py'), file('README.md'), file('src/util/x.py'), file('src/a.py'), file('docs/Guide.md'), file('app.py')]);
    expect(tree.files).toBe(6);
    expect(lines(tree.children)).toEqual(['docs/ (1)', '  Guide.md', 'src/ (3)', '  util/ (1)', '    x.py', '  a.py', '  b.py', 'app.py', 'README.md']);
  });

  it('puts links among the files, by name, with their targets, and counts them as no file', () => {
    const tree = buildTree([file('notes/a.md'), file('z.txt')], [
      { path: 'secret', target: '/etc/passwd' },
      { path: 'notes/b', target: '../gone' },
      { path: 'deep/inside/link', target: 'x' },
    ]);
    expect(lines(tree.children)).toEqual(['deep/ (0)', '  inside/ (0)', '    link -> x', 'notes/ (1)', '  a.md', '  b -> ../gone', 'secret -> /etc/passwd', 'z.txt']);
    expect(tree.files).toBe(2);
  });

  it('keeps each file’s path, size and whether it was stored', () => {
    const tree = buildTree([file('data/big.bin', 9_000_000, false)]);
    const folder = tree.children[0];
    expect(folder).toMatchObject({ kind: 'folder', path: 'data' });
    expect(folder.kind === 'folder' && folder.children[0]).toEqual({ kind: 'file', name: 'big.bin', path: 'data/big.bin', size: 9_000_000, stored: false });
  });

  it('keeps why a file’s content was not stored, when the server says', () => {
    const tree = buildTree([file('f.bin', 300_000, false, "not stored: this run's snapshot storage (200 MB) is full")]);
    expect(tree.children[0]).toMatchObject({ stored: false, reason: "not stored: this run's snapshot storage (200 MB) is full" });
  });

  it('skips empty path parts and empty paths', () => {
    expect(lines(buildTree([file('/a//b.txt'), file('')]).children)).toEqual(['a/ (1)', '  b.txt']);
  });

  it('builds a large tree quickly', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => file(`d${i % 50}/e${i % 7}/f${i}.txt`));
    const began = performance.now();
    expect(buildTree(many).files).toBe(20_000);
    expect(performance.now() - began).toBeLessThan(1500);
  });
});

describe('foldersAbove', () => {
  it('lists the folders that hold a path', () => {
    expect(foldersAbove('a/b/c.txt')).toEqual(['a', 'a/b']);
    expect(foldersAbove('c.txt')).toEqual([]);
  });
});
