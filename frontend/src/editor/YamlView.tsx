// The YAML view: edits here go to the server, whose parsed document redraws
// the canvas; structured edits come back as the server's rendering (comments
// kept). Diagnostics show on their lines.
import { memo, useEffect, useMemo, useRef } from 'react';
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { CodeEditor } from '../components/CodeEditor';
import { PanelEdge } from '../components/PanelEdge';
import type { SidePanelState } from '../components/sidePanel';
import { useEditor, useEditorStore } from '../store/context';

/** `panel`: its width, dragged at its left edge like the inspector's and remembered; the edge's button hides it. */
export const YamlView = memo(function YamlView({ panel }: { panel: SidePanelState }) {
  const store = useEditorStore();
  const source = useEditor((s) => s.source);
  const errors = useEditor((s) => s.errors);
  const warnings = useEditor((s) => s.warnings);
  const parseFailed = useEditor((s) => s.parseFailed);
  const readOnly = useEditor((s) => s.readOnly);
  const focusLine = useEditor((s) => s.focusLine);
  const focusNonce = useEditor((s) => s.focusNonce);
  const view = useRef<EditorView | null>(null);
  const extensions = useMemo(() => [yaml(), lintGutter()], []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const doc = v.state.doc;
    const diags: Diagnostic[] = [];
    for (const d of [...errors, ...warnings]) {
      if (!d.line || d.line < 1 || d.line > doc.lines) continue;
      const line = doc.line(d.line);
      const from = Math.min(line.to, line.from + Math.max(0, (d.column ?? 1) - 1));
      diags.push({ from, to: Math.max(from, line.to), severity: d.severity, message: `${d.message} (${d.code})`, source: 'server' });
    }
    v.dispatch(setDiagnostics(v.state, diags));
  }, [errors, warnings, source]);

  useEffect(() => {
    const v = view.current;
    if (!v || !focusLine || focusLine > v.state.doc.lines) return;
    const line = v.state.doc.line(focusLine);
    v.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) });
  }, [focusLine, focusNonce]);

  return (
    <section className="yaml-view" aria-label="YAML" data-testid="yaml-view">
      <PanelEdge panel={panel} name="YAML panel" />
      <header className="pane-head">
        <strong>YAML</strong>
        <span className="muted small">{readOnly ? 'read only' : 'edit here or on the canvas'}</span>
      </header>
      {parseFailed && <div className="yaml-banner">This text does not parse yet; the canvas shows the last version that did.</div>}
      <CodeEditor
        value={source}
        onChange={(t) => store.getState().setSource(t)}
        extensions={extensions}
        lineNumbers
        readOnly={readOnly}
        className="cm-yaml"
        ariaLabel="YAML source"
        testId="yaml-editor"
        onView={(v) => (view.current = v)}
      />
    </section>
  );
});
