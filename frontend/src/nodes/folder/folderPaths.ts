// Checks on the paths a person types for a folder file, before asking the server (which checks again).

/** Why a typed path cannot be a file of the folder, or null when it can. */
export function pathProblem(raw: string, existing: readonly string[]): string | null {
  const path = raw.trim().replace(/\\/g, '/');
  if (!path) return 'Type a file name, such as prompts/writer.md.';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'Use a path relative to the workflow’s folder (no leading /).';
  const parts = path.split('/');
  if (parts.includes('..')) return 'Paths stay inside the workflow’s folder: no “..”.';
  if (parts.some((p) => p === '' || p === '.')) return 'A path has no empty parts (no “//”, no “./”).';
  if (existing.includes(path)) return `The folder already has ${path}.`;
  return null;
}

/** Files edited as text in the folder panel (others are shown by size and kind). */
export function isTextName(path: string): boolean {
  return /\.(md|markdown|txt|ya?ml|json|csv|xml|html?|py|js|ts|sh|toml|ini|cfg)$/i.test(path) || !/\.[^/]+$/.test(path);
}

/** The folder a file sits in ('' for the top of the workflow's folder). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/**
 * `ref` as seen from the folder `baseDir`, as the server's designer/folders.py `joined` reads it; null when it
 * is absolute or leaves the workflow's folder (the server refuses those).
 */
export function joinPath(baseDir: string, ref: string): string | null {
  const clean = ref.trim().replace(/\\/g, '/');
  if (!clean || clean.startsWith('/') || /^[A-Za-z]:/.test(clean)) return null;
  const out: string[] = [];
  for (const part of [...(baseDir ? baseDir.split('/') : []), ...clean.split('/')]) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(part);
  }
  return out.length ? out.join('/') : null;
}

/** The file an instructions or prompt value names (`@prompts/x.md`), or null for inline text. */
export function atFile(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('@')) return null;
  const ref = value.slice(1).trim();
  return ref && !/\s/.test(ref) ? ref : null;
}

export type FileKind = 'text' | 'image' | 'pdf' | 'binary';

/** How a context file reaches the model: inlined text, or an image or PDF attachment. */
export function fileKind(path: string): FileKind {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  return isTextName(path) ? 'text' : 'binary';
}
