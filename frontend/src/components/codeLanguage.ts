// Which highlighting a file gets, by its name: JSON and YAML by their CodeMirror languages, other
// common source files by a small keyword-and-comment tokenizer (simpleModes.ts); anything else plain.

export type CodeLanguage = 'json' | 'yaml' | 'python' | 'javascript' | 'shell' | 'go' | 'rust' | 'clike' | 'ruby' | 'sql' | 'toml' | 'css';

const BY_EXTENSION: Record<string, CodeLanguage> = {
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'javascript',
  tsx: 'javascript',
  mts: 'javascript',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  go: 'go',
  rs: 'rust',
  c: 'clike',
  h: 'clike',
  cc: 'clike',
  cpp: 'clike',
  hpp: 'clike',
  java: 'clike',
  kt: 'clike',
  cs: 'clike',
  swift: 'clike',
  rb: 'ruby',
  sql: 'sql',
  toml: 'toml',
  ini: 'toml',
  cfg: 'toml',
  css: 'css',
  scss: 'css',
};

/** Files known by their whole name (lower case), which have no telling extension. */
const BY_NAME: Record<string, CodeLanguage> = {
  dockerfile: 'shell',
  makefile: 'shell',
  '.bashrc': 'shell',
  '.env': 'shell',
  'pipfile': 'toml',
};

/** The language to highlight a file in, from its path; null: plain text. */
export function languageOf(path: string): CodeLanguage | null {
  const name = (path.split('/').pop() ?? '').toLowerCase();
  if (Object.prototype.hasOwnProperty.call(BY_NAME, name)) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  const ext = name.slice(dot + 1);
  return Object.prototype.hasOwnProperty.call(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : null;
}
