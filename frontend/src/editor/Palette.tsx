import { memo } from 'react';
import { addNode } from '../nodes/add';
import { PALETTE } from '../nodes/registry';
import { PALETTE_MIME } from '../nodes/types';
import { useEditor, useEditorStore } from '../store/context';
import type { EditorStore } from '../store/editorStore';

export const Palette = memo(function Palette() {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const selection = useEditor((s) => s.selection);
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
            const sel = selection?.kind === 'step' ? selection.key : '';
            const scope = item.inner && sel ? loopScope(store, sel) : '';
            const wrap = (e.currentTarget as HTMLElement).closest('.canvas-wrap')?.getBoundingClientRect();
            addNode(store, item, undefined, scope, wrap && wrap.height > 0 ? wrap.width / wrap.height : undefined);
          }}
        >
          <span className="palette-icon" aria-hidden>
            {item.icon}
          </span>
          {item.label}
        </button>
      ))}
    </div>
  );
});

function loopScope(store: EditorStore, key: string): string {
  const { doc } = store.getState();
  const top = key.split('/')[0];
  const step = Array.isArray(doc.steps) ? doc.steps.find((s) => s && s.id === top) : undefined;
  return step && typeof step.loop === 'object' && step.loop !== null && Array.isArray(step.loop.steps) ? top : '';
}
