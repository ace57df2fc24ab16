import { memo } from 'react';
import { useEditor, useEditorStore } from '../store/context';
import { addFromPalette, type PaletteKind } from './actions';
import { PALETTE_MIME } from './Canvas';

const ITEMS: { kind: PaletteKind; icon: string; label: string; hint: string }[] = [
  { kind: 'step', icon: '▣', label: 'Step', hint: 'An agent task. Drop it on a loop to make it an inner step.' },
  { kind: 'forEach', icon: '⇉', label: 'forEach', hint: 'Runs its inner steps once per item, in parallel.' },
  { kind: 'repeat', icon: '↻', label: 'Repeat-until', hint: 'Repeats its inner steps until a CEL condition is true.' },
  { kind: 'judge', icon: '⚖', label: 'Judge loop', hint: 'Repeats until a judge agent says done (adds the judge agent).' },
  { kind: 'include', icon: '⤷', label: 'Include', hint: 'Runs a sub-workflow file.' },
];

export const Palette = memo(function Palette() {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const selection = useEditor((s) => s.selection);
  if (readOnly) return null;
  return (
    <div className="palette" aria-label="Add to the workflow">
      <div className="palette-title">Add</div>
      {ITEMS.map((item) => (
        <button
          key={item.kind}
          className="palette-item"
          draggable
          data-testid={`palette-${item.kind}`}
          title={`${item.hint} Click to add, or drag onto the canvas.`}
          onDragStart={(e) => {
            e.dataTransfer.setData(PALETTE_MIME, item.kind);
            e.dataTransfer.effectAllowed = 'copy';
          }}
          onClick={(e) => {
            // A plain step goes into the selected loop, if one is selected.
            const sel = selection?.kind === 'step' ? selection.key : '';
            const scope = item.kind === 'step' && sel ? loopScope(store, sel) : '';
            const wrap = (e.currentTarget as HTMLElement).closest('.canvas-wrap')?.getBoundingClientRect();
            addFromPalette(store, item.kind, undefined, scope, wrap && wrap.height > 0 ? wrap.width / wrap.height : undefined);
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

function loopScope(store: ReturnType<typeof useEditorStore>, key: string): string {
  const { doc } = store.getState();
  const top = key.split('/')[0];
  const step = Array.isArray(doc.steps) ? doc.steps.find((s) => s && s.id === top) : undefined;
  return step && typeof step.loop === 'object' && step.loop !== null && Array.isArray(step.loop.steps) ? top : '';
}
