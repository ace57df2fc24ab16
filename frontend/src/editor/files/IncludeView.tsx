// An opened include: the included workflow drawn read only over the editor's canvas, with a breadcrumb back.
// Its own include nodes open further (the breadcrumb grows). The editor's document is never swapped: this draws
// a separate read-only store, as the version comparison does, so nothing here can edit or save.
import { useEffect, useMemo, useState } from 'react';
import { ReactFlow, ReactFlowProvider } from '@xyflow/react';
import { READ_ONLY_FLOW, ReadOnlyBackdrop } from '../../graph/readOnlyFlow';
import { api } from '../../api/client';
import type { WorkflowDoc } from '../../doc/types';
import { documentToGraph, type FlowEdge, type FlowNode } from '../../graph/mapping';
import { nodeTypes } from '../../nodes/registry';
import { EditorContext, useEditor, useEditorStore } from '../../store/context';
import { createEditorStore } from '../../store/editorStore';
import type { DrillLevel } from '../../store/types';
import { includedDoc, type IncludedDoc } from '../../nodes/folder/includeLookup';
import { IncludeScopeContext, type IncludeScope } from '../../nodes/folder/includeScope';
import './files.css';

export function IncludeView() {
  const drill = useEditor((s) => s.drill);
  const workflowId = useEditor((s) => s.workflowId);
  const version = useEditor((s) => s.savedVersion);
  const store = useEditorStore();
  const level = drill[drill.length - 1];
  // Another workflow loaded into this editor: its includes are not these.
  useEffect(() => store.getState().closeIncludes(0), [workflowId, store]);
  if (!level || workflowId === null) return null;
  return (
    <section className="include-view" data-testid="include-view" aria-label={`Included workflow ${level.file} (read only)`}>
      <Breadcrumb drill={drill} onBack={(depth) => store.getState().closeIncludes(depth)} />
      <Included key={drill.map((l) => l.file).join('>')} workflowId={workflowId} version={version} level={level} open={(l) => store.getState().openInclude(l)} />
    </section>
  );
}

function Breadcrumb({ drill, onBack }: { drill: DrillLevel[]; onBack: (depth: number) => void }) {
  return (
    <nav className="include-crumbs" aria-label="Opened includes" data-testid="include-breadcrumb">
      <ol>
        <li>
          <button type="button" className="btn ghost small" onClick={() => onBack(0)} data-testid="include-crumb-main">
            main workflow
          </button>
        </li>
        {drill.map((l, i) => (
          <li key={i}>
            <span aria-hidden="true">›</span>{' '}
            {i === drill.length - 1 ? (
              <span aria-current="page">
                {l.step} <span className="muted">({l.file})</span>
              </span>
            ) : (
              <button type="button" className="btn ghost small" onClick={() => onBack(i + 1)}>
                {l.step} <span className="muted">({l.file})</span>
              </button>
            )}
          </li>
        ))}
      </ol>
      <span className="muted small">Read only: edit it in the Files tab.</span>
    </nav>
  );
}

function Included({ workflowId, version, level, open }: { workflowId: number; version: number | null; level: DrillLevel; open: (l: DrillLevel) => void }) {
  const [found, setFound] = useState<IncludedDoc | null>(null);
  useEffect(() => {
    let live = true;
    void includedDoc(workflowId, version, level.file).then((f) => live && setFound(f));
    return () => {
      live = false;
    };
  }, [workflowId, version, level.file]);
  const scope = useMemo<IncludeScope | null>(
    () => (found?.doc ? { workflowId, version, baseFile: level.file, includes: found.doc.includes, open } : null),
    [found, workflowId, version, level.file, open],
  );
  if (!found) return <p className="canvas-empty muted">Opening {level.file}…</p>;
  if (!found.doc || !scope)
    return (
      <p className="canvas-empty" role="alert">
        {found.problem}
      </p>
    );
  return (
    <IncludeScopeContext.Provider value={scope}>
      <ReadOnlyCanvas doc={found.doc} />
    </IncludeScopeContext.Provider>
  );
}

function ReadOnlyCanvas({ doc }: { doc: WorkflowDoc }) {
  // The node components read an editor store (problems, run status): a read-only one holding this document.
  const [store] = useState(() => {
    const s = createEditorStore(api);
    s.getState().load({ workflowId: null, version: null, doc, source: '', layout: null, errors: [], warnings: [], readOnly: true });
    return s;
  });
  const graph = useMemo(() => documentToGraph(doc, null), [doc]);
  if (graph.unmapped) return <p className="canvas-empty">{graph.unmapped}</p>;
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <div className="include-canvas" data-testid="include-canvas">
          <ReactFlow<FlowNode, FlowEdge>
            nodes={graph.nodes}
            edges={graph.edges}
            nodeTypes={nodeTypes}
            {...READ_ONLY_FLOW}
          >
            <ReadOnlyBackdrop />
          </ReactFlow>
        </div>
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}
