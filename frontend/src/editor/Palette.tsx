import { memo } from 'react';
import { addNode, scopeForAdding } from '../nodes/add';
import { PALETTE } from '../nodes/registry';
import { PALETTE_MIME } from '../nodes/types';
import { useEditor, useEditorStore } from '../store/context';

export const Palette = memo(function Palette() {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  // Read only (the user's role cannot edit): shown, so the editor looks the same, but nothing can be added.
  return (
    <div className={`palette${readOnly ? ' palette-disabled' : ''}`} role="group" aria-label="Add to the workflow">
      <div className="palette-title">Add</div>
      {PALETTE.map((item) => (
        <button
          key={item.kind}
          className="palette-item"
          draggable={!readOnly}
          disabled={readOnly}
          data-testid={`palette-${item.kind}`}
          title={readOnly ? 'Read only: your role cannot change this workflow' : `${item.hint} Click to add, or drag onto the canvas.`}
          onDragStart={(e) => {
            e.dataTransfer.setData(PALETTE_MIME, item.kind);
            e.dataTransfer.effectAllowed = 'copy';
          }}
          onClick={(e) => {
            // A plain step goes into the selected loop, if one is selected.
            const scope = scopeForAdding(store, item);
            const wrap = (e.currentTarget as HTMLElement).closest('.canvas-wrap')?.getBoundingClientRect();
            addNode(store, item, undefined, scope, wrap && wrap.height > 0 ? wrap.width / wrap.height : undefined);
          }}
        >
          <span className="palette-icon" aria-hidden>
            {item.icon}
          </span>
          <span className="palette-label">{item.label}</span>
        </button>
      ))}
    </div>
  );
});
