// The command palette's copy, cut, paste, duplicate, wrap and unwrap: the
// canvas's clipboard actions, with why each cannot run now.
import {
  copySelection,
  cutSelection,
  duplicateSelection,
  loopToUnwrap,
  pasteFromClipboard,
  unwrapSelection,
  wrapSelection,
} from '../../canvas/clipboardActions';
import { wrapProblem, unwrapProblem, type WrapKind } from '../../doc/wrap';
import type { Position } from '../../doc/types';
import type { EditorStore } from '../../store/editorStore';
import type { Action, PieceActions } from './commands';

const NOTHING = 'Select one or more steps first';

export function pieceActions(store: EditorStore, selected: readonly string[], editDenied: string | null, centre: () => Position): PieceActions {
  const state = store.getState();
  const keys = selected.length ? [...selected] : state.selection?.kind === 'step' ? [state.selection.key] : [];
  const none = keys.length === 0 ? NOTHING : null;
  const wrap = (kind: WrapKind): Action => ({
    run: () => wrapSelection(store, kind),
    disabled: editDenied ?? (keys.length === 0 ? NOTHING : wrapProblem(state.doc, keys)),
  });
  const loop = loopToUnwrap(store);
  return {
    copy: { run: () => void copySelection(store), disabled: none },
    cut: { run: () => void cutSelection(store), disabled: editDenied ?? none },
    paste: { run: () => void pasteFromClipboard(store, centre()), disabled: editDenied },
    duplicate: { run: () => duplicateSelection(store), disabled: editDenied ?? none },
    wrapForEach: wrap('forEach'),
    wrapRepeat: wrap('repeat'),
    wrapJudge: wrap('judge'),
    unwrap: { run: () => unwrapSelection(store), disabled: editDenied ?? (loop ? unwrapProblem(state.doc, loop) : 'Select a loop first') },
  };
}
