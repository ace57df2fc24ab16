// Do not lose work on leaving: closing the tab, or going elsewhere in the app.
import { useEffect } from 'react';
import { setLeaveGuard } from '../../router';
import { isDirty, type EditorStore } from '../../store/editorStore';

/** `discardKept` (stable): the user chose to leave, so the kept draft goes too. */
export function useLeaveGuard(store: EditorStore, discardKept: () => void): void {
  useEffect(() => {
    const unsaved = () => isDirty(store.getState()) && store.getState().revision > 0;
    const onUnload = (e: BeforeUnloadEvent) => {
      if (unsaved()) e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    const removeGuard = setLeaveGuard(
      () => (unsaved() ? 'This workflow has changes that are not saved. Leaving the editor discards them.' : null),
      () => discardKept(),
    );
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      removeGuard();
    };
  }, [store, discardKept]);
}
