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
  where: 'everywhere' | 'outside text fields' | 'on a canvas node' | 'in a dialog';
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
  { id: 'delete', keys: 'Delete / Backspace', description: 'Remove the selected step or connection', where: 'outside text fields', match: (e) => e.key === 'Delete' || e.key === 'Backspace' },
  // Handled by the canvas (canvas/Canvas.tsx) and the dialogs (components/Modal.tsx).
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
