// The actions on several selected steps, floating under them: copy, cut,
// duplicate, wrap in a loop, delete (the same functions as the keys and the
// command palette).
import { copySelection, cutSelection, duplicateSelection, wrapSelection } from '../../canvas/clipboardActions';
import { deleteSelection } from '../../canvas/deleteSelection';
import { useEditor, useEditorStore } from '../../store/context';
import './selection.css';

export function SelectionBar() {
  const store = useEditorStore();
  const count = useEditor((s) => s.selectedKeys.length);
  if (count < 2) return null;
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected steps" data-testid="selection-bar">
      <span className="selection-count">{count} selected</span>
      <button className="btn small ghost" onClick={() => void copySelection(store)} title="Ctrl+C">
        Copy
      </button>
      <button className="btn small ghost" onClick={() => void cutSelection(store)} title="Ctrl+X">
        Cut
      </button>
      <button className="btn small ghost" onClick={() => duplicateSelection(store)} title="Ctrl+D">
        Duplicate
      </button>
      <span className="selection-sep" />
      <span className="selection-label">Wrap in</span>
      <button className="btn small ghost" onClick={() => wrapSelection(store, 'forEach')} data-testid="wrap-forEach">
        forEach
      </button>
      <button className="btn small ghost" onClick={() => wrapSelection(store, 'repeat')} data-testid="wrap-repeat">
        repeat-until
      </button>
      <button className="btn small ghost" onClick={() => wrapSelection(store, 'judge')} data-testid="wrap-judge">
        judge loop
      </button>
      <span className="selection-sep" />
      <button className="btn small danger ghost" onClick={() => deleteSelection(store)} title="Delete">
        Delete
      </button>
    </div>
  );
}
