// The command palette's commands, built from the editor's state, and how a
// query ranks them. Pure: what a command does comes in as callbacks (the same
// functions the toolbar and the palette of node kinds call).
import { innerSteps, joinKey, localKeys } from '../../doc/keys';
import { isObject, type Step, type WorkflowDoc } from '../../doc/types';
import { shortcut } from './shortcuts';

export interface Command {
  id: string;
  title: string;
  /** Other words it is found by. */
  keywords: string[];
  /** Keys that do the same, as shown (e.g. "Ctrl+S"). */
  shortcut?: string;
  /** Why it cannot be done now (null or absent: it can). */
  disabled?: string | null;
  run(): void;
}

/** An action of the editor, and why it is not available now (null: it is). */
export interface Action {
  run(): void;
  disabled?: string | null;
}

export interface CommandSources {
  doc: WorkflowDoc;
  /** The kinds of node that can be added (the node palette's entries). */
  kinds: readonly { kind: string; label: string; hint: string }[];
  /** Why nothing can be added or changed (null: it can). */
  editDenied: string | null;
  addNode(kind: string): void;
  goToStep(key: string): void;
  openAgent(name: string): void;
  run: Action;
  save: Action;
  exportYaml: Action;
  exportJson: Action;
  copyYaml: Action;
  importFile: Action;
  toggleYaml: Action & { shown: boolean };
  tidy: Action;
  fit: Action;
  undo: Action;
  redo: Action;
  showShortcuts: Action;
  /** Takes the user to the problems panel (what is valid, what blocks Run). */
  showProblems: Action;
  /** Copy, cut, paste, duplicate, wrap and unwrap of the selected steps. */
  pieces: PieceActions;
}

export interface PieceActions {
  copy: Action;
  cut: Action;
  paste: Action;
  duplicate: Action;
  wrapForEach: Action;
  wrapRepeat: Action;
  wrapJudge: Action;
  unwrap: Action;
}

/** Every step of the document with its key (inner steps of loops as `loop/inner`), in document order. */
export function stepKeys(doc: WorkflowDoc): { key: string; step: Step | null }[] {
  const out: { key: string; step: Step | null }[] = [];
  const walk = (steps: unknown[], scope: string) => {
    const keys = localKeys(steps as Step[]);
    steps.forEach((raw, i) => {
      const step = isObject(raw) ? (raw as Step) : null;
      const key = joinKey(scope, keys[i]);
      out.push({ key, step });
      const inner = step ? innerSteps(step) : null;
      if (inner) walk(inner, key);
    });
  };
  if (Array.isArray(doc.steps)) walk(doc.steps, '');
  return out;
}

function action(id: string, title: string, keywords: string[], a: Action, keys?: string): Command {
  return { id, title, keywords, shortcut: keys, disabled: a.disabled ?? null, run: a.run };
}

export function buildCommands(src: CommandSources): Command[] {
  const out: Command[] = [];
  for (const k of src.kinds) {
    out.push({
      id: `add:${k.kind}`,
      title: `Add ${k.label}`,
      keywords: ['add', 'new', 'node', k.kind, k.hint],
      disabled: src.editDenied,
      run: () => src.addNode(k.kind),
    });
  }
  out.push(
    action('run', 'Run', ['start', 'execute', 'play'], src.run),
    action('save', 'Save', ['version', 'store'], src.save, shortcut('save').keys),
    action('export:yaml', 'Export: download YAML', ['export', 'download', 'file', 'yaml'], src.exportYaml),
    action('export:json', 'Export: download JSON', ['export', 'download', 'file', 'json'], src.exportJson),
    action('export:copy', 'Export: copy YAML', ['export', 'clipboard', 'copy', 'yaml'], src.copyYaml),
    action('import', 'Import a workflow', ['open', 'file', 'paste', 'yaml', 'json'], src.importFile),
    action('toggle-yaml', src.toggleYaml.shown ? 'Toggle YAML (hide the YAML view)' : 'Toggle YAML (show the YAML view)', ['yaml', 'source', 'text', 'panel', 'code'], src.toggleYaml),
    action('tidy', 'Tidy up', ['layout', 'arrange', 'auto', 'organize'], src.tidy),
    action('fit', 'Fit the workflow in view', ['zoom', 'view', 'centre', 'center'], src.fit),
    action('undo', 'Undo', ['back'], src.undo, shortcut('undo').keys),
    action('redo', 'Redo', ['again'], src.redo, shortcut('redo').keys),
    action('problems', 'Show problems (is it valid? what blocks Run?)', ['valid', 'validate', 'validation', 'check', 'errors', 'warnings', 'problems', 'lint'], src.showProblems),
    action('shortcuts', 'Show keyboard shortcuts', ['help', 'keys', 'hotkeys'], src.showShortcuts, shortcut('help').keys),
    action('copy', 'Copy the selected steps', ['copy', 'clipboard', 'yaml', 'selection'], src.pieces.copy, shortcut('copy').keys),
    action('cut', 'Cut the selected steps', ['cut', 'clipboard', 'move'], src.pieces.cut, shortcut('cut').keys),
    action('paste', 'Paste steps', ['paste', 'clipboard', 'yaml', 'insert'], src.pieces.paste, shortcut('paste').keys),
    action('duplicate', 'Duplicate the selected steps', ['duplicate', 'clone', 'copy'], src.pieces.duplicate, shortcut('duplicate').keys),
    action('wrap:forEach', 'Wrap in a forEach loop', ['wrap', 'loop', 'foreach', 'group', 'map'], src.pieces.wrapForEach),
    action('wrap:repeat', 'Wrap in a repeat-until loop', ['wrap', 'loop', 'repeat', 'until', 'group'], src.pieces.wrapRepeat),
    action('wrap:judge', 'Wrap in a judge loop', ['wrap', 'loop', 'judge', 'untilAgent', 'group'], src.pieces.wrapJudge),
    action('unwrap', 'Unwrap loop', ['unwrap', 'loop', 'ungroup', 'flatten'], src.pieces.unwrap),
  );
  for (const { key, step } of stepKeys(src.doc)) {
    const agent = step && typeof step.agent === 'string' ? step.agent : '';
    out.push({
      id: `step:${key}`,
      title: `Go to step ${key}`,
      keywords: ['step', 'go', 'select', 'find', ...(agent ? [agent] : [])],
      run: () => src.goToStep(key),
    });
  }
  if (isObject(src.doc.agents)) {
    for (const name of Object.keys(src.doc.agents)) {
      out.push({ id: `agent:${name}`, title: `Open agent ${name}`, keywords: ['agent', 'open', 'edit'], run: () => src.openAgent(name) });
    }
  }
  return out;
}

/** How well `text` matches `q` (both lower case): 0 for not at all, higher for better. */
function score(text: string, q: string): number {
  if (!q) return 1;
  if (text === q) return 100;
  if (text.startsWith(q)) return 80;
  const at = text.indexOf(q);
  if (at >= 0) {
    const wordStart = at === 0 || /[\s:/_\-.]/.test(text[at - 1]);
    return wordStart ? 60 : 40;
  }
  // In order, not next to each other ("gts" for "go to step"): fewer gaps ranks higher.
  let i = 0;
  let gaps = 0;
  let last = -1;
  for (const c of q) {
    if (c === ' ') continue;
    const found = text.indexOf(c, i);
    if (found < 0) return 0;
    if (last >= 0 && found !== last + 1) gaps++;
    last = found;
    i = found + 1;
  }
  return Math.max(1, 20 - gaps);
}

function commandScore(c: Command, q: string): number {
  const title = score(c.title.toLowerCase(), q);
  // Every word of the query in the title or the keywords ("step start", "export json").
  const words = q.split(/\s+/).filter(Boolean);
  const hay = [c.title, ...c.keywords].join(' ').toLowerCase();
  const allWords = words.length > 1 && words.every((w) => hay.includes(w)) ? 50 : 0;
  let keyword = 0;
  for (const k of c.keywords) {
    const s = score(k.toLowerCase(), q);
    // A keyword match counts less than the same match in the title, and a fuzzy one not at all.
    if (s >= 40) keyword = Math.max(keyword, s - 45);
  }
  return Math.max(title, allWords, keyword);
}

/**
 * The commands that match `query`, best first (ties keep the list's order);
 * an empty query keeps them all, in order. Case does not matter.
 */
export function filterCommands(commands: readonly Command[], query: string): Command[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return [...commands];
  return commands
    .map((c, i) => ({ c, i, s: commandScore(c, q) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.c);
}
