// Every keyboard shortcut of the editor, in one list: the keys shown to the
// user (the shortcut help, the command palette), what they do, and (for the
// editor-wide ones) the test that useEditorKeys uses to recognise them.

/** The parts of a keyboard event a shortcut looks at. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export type ShortcutId =
  | 'save'
  | 'commands'
  | 'help'
  | 'undo'
  | 'redo'
  | 'redo-y'
  | 'delete'
  | 'copy'
  | 'cut'
  | 'paste'
  | 'duplicate'
  | 'select-all'
  | 'select-none'
  | 'select-add'
  | 'select-box'
  | 'node-open'
  | 'node-move'
  | 'node-tab'
  | 'dialog-close';

export interface Shortcut {
  id: ShortcutId;
  /** The keys as shown, e.g. "Ctrl+K" (Cmd on a Mac). */
  keys: string;
  description: string;
  /** Where it works. */
  where: 'everywhere' | 'outside text fields' | 'on a canvas node' | 'on the canvas' | 'in a dialog';
  /** Recognises the key, for the shortcuts useEditorKeys handles (the others are handled where they apply). */
  match?: (e: KeyLike) => boolean;
}

const mod = (e: KeyLike) => e.ctrlKey || e.metaKey;
const letter = (e: KeyLike, c: string) => e.key.toLowerCase() === c;

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'save', keys: 'Ctrl+S', description: 'Save a new version', where: 'everywhere', match: (e) => mod(e) && letter(e, 's') },
  { id: 'commands', keys: 'Ctrl+K', description: 'Open the command palette', where: 'everywhere', match: (e) => mod(e) && !e.shiftKey && !e.altKey && letter(e, 'k') },
  { id: 'help', keys: '?', description: 'Show the keyboard shortcuts', where: 'outside text fields', match: (e) => e.key === '?' && !mod(e) && !e.altKey },
  { id: 'undo', keys: 'Ctrl+Z', description: 'Undo', where: 'outside text fields', match: (e) => mod(e) && !e.shiftKey && letter(e, 'z') },
  { id: 'redo', keys: 'Ctrl+Shift+Z', description: 'Redo', where: 'outside text fields', match: (e) => mod(e) && e.shiftKey && letter(e, 'z') },
  { id: 'redo-y', keys: 'Ctrl+Y', description: 'Redo', where: 'outside text fields', match: (e) => mod(e) && letter(e, 'y') },
  { id: 'delete', keys: 'Delete / Backspace', description: 'Remove the selected steps or connection', where: 'outside text fields', match: (e) => e.key === 'Delete' || e.key === 'Backspace' },
  // Copy, cut and paste come as the browser's clipboard events (canvas/useClipboardKeys.ts): the keys are shown, not matched.
  { id: 'copy', keys: 'Ctrl+C', description: 'Copy the selected steps (as zenflow YAML, with their agents)', where: 'outside text fields' },
  { id: 'cut', keys: 'Ctrl+X', description: 'Cut the selected steps', where: 'outside text fields' },
  { id: 'paste', keys: 'Ctrl+V', description: 'Paste steps (zenflow YAML from anywhere) into the selected loop or the workflow', where: 'outside text fields' },
  { id: 'duplicate', keys: 'Ctrl+D', description: 'Duplicate the selected steps', where: 'outside text fields', match: (e) => mod(e) && !e.shiftKey && !e.altKey && letter(e, 'd') },
  { id: 'select-all', keys: 'Ctrl+A', description: 'Select every top-level step', where: 'outside text fields', match: (e) => mod(e) && !e.shiftKey && !e.altKey && letter(e, 'a') },
  { id: 'select-none', keys: 'Escape', description: 'Clear the selection of several steps', where: 'outside text fields', match: (e) => e.key === 'Escape' && !mod(e) && !e.shiftKey && !e.altKey },
  // Handled by the canvas (canvas/Canvas.tsx) and the dialogs (components/Modal.tsx).
  { id: 'select-add', keys: 'Shift+click', description: 'Add a node to the selection, or take it out', where: 'on a canvas node' },
  { id: 'select-box', keys: 'Shift+drag', description: 'Select the nodes in a box (added to the selection)', where: 'on the canvas' },
  { id: 'node-open', keys: 'Enter / Space', description: 'Open the focused node in the inspector', where: 'on a canvas node' },
  { id: 'node-move', keys: 'Arrow keys', description: 'Move the focus to the nearest node that way', where: 'on a canvas node' },
  { id: 'node-tab', keys: 'Tab / Shift+Tab', description: 'Move the focus from node to node', where: 'on a canvas node' },
  { id: 'dialog-close', keys: 'Escape', description: 'Close the dialog (the command palette, this help …)', where: 'in a dialog' },
];

/** The shortcut with this id (every id is in SHORTCUTS). */
export function shortcut(id: ShortcutId): Shortcut {
  const found = SHORTCUTS.find((s) => s.id === id);
  if (!found) throw new Error(`no shortcut ${id}`);
  return found;
}

/** Whether the event is the shortcut `id`. */
export function isShortcut(id: ShortcutId, e: KeyLike): boolean {
  return !!shortcut(id).match?.(e);
}
