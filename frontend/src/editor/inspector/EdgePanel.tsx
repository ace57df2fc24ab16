import { disconnect } from '../../doc/ops';
import { Section } from '../../forms/fields';
import { useEditorStore } from '../../store/context';
import type { Selection } from '../../store/editorStore';

export function EdgePanel({ selection }: { selection: Extract<Selection, { kind: 'edge' }> }) {
  const store = useEditorStore();
  return (
    <div className="insp-body">
      <Section title="Dependency">
        <p>
          <code>{selection.target}</code> runs after <code>{selection.source}</code> and receives its output.
        </p>
        <button
          className="btn small danger"
          onClick={() => {
            const s = store.getState();
            s.applyDoc(disconnect(s.doc, selection.source, selection.target), { select: null });
          }}
        >
          Remove dependency
        </button>
        <p className="muted small">Tip: press Delete to remove the selected dependency.</p>
      </Section>
    </div>
  );
}
