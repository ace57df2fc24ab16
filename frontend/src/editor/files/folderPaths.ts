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
