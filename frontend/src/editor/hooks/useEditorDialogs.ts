// The editor's dialogs (one open at a time): importing, running, the command palette and the shortcuts.
import { useCallback, useMemo, useState } from 'react';
import type { KeyDialogs } from '../useEditorKeys';

export type EditorDialog = 'import' | 'run' | 'commands' | 'shortcuts';

export function useEditorDialogs() {
  const [dialog, setDialog] = useState<EditorDialog | null>(null);
  // Stable, so that effects and memoised handlers may depend on them.
  const open = useCallback((which: EditorDialog) => setDialog(which), []);
  const close = useCallback(() => setDialog(null), []);
  const openRun = useCallback(() => setDialog('run'), []);
  /** The dialogs the keyboard opens. */
  const keyDialogs = useMemo<KeyDialogs>(() => ({ openCommands: () => setDialog('commands'), openHelp: () => setDialog('shortcuts') }), []);
  return { dialog, open, close, openRun, keyDialogs };
}
