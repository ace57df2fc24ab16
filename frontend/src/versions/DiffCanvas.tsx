// The comparison's canvas: read only, the later version's steps marked, the removed ones below.
// The registry's node components read an editor store (run status, read only), so the canvas gets
// one of its own holding the later version, as the run page does.
import { useEffect, useState } from 'react';
import { ReactFlow, ReactFlowProvider, useNodesState, useReactFlow } from '@xyflow/react';
import { READ_ONLY_FLOW, ReadOnlyBackdrop } from '../graph/readOnlyFlow';
import { api } from '../api/client';
import type { Layout, WorkflowDoc } from '../doc/types';
import { EditorContext } from '../store/context';
import { createEditorStore, type EditorStore } from '../store/editorStore';
import type { DiffEdge, DiffGraph, DiffNode } from './diffGraph';
import { diffNodeTypes } from './diffNodes';

interface Props {
  graph: DiffGraph;
  /** The later version, for the node components' store. */
  doc: WorkflowDoc;
  layout: Layout | null;
  selected: string | null;
  onSelect: (key: string | null) => void;
}

/** Read only, and judged already (empty lists): the store never asks the server to check it. */
function load(store: EditorStore, doc: WorkflowDoc, layout: Layout | null): void {
  store.getState().load({ workflowId: null, version: null, doc, source: '', layout, errors: [], warnings: [], readOnly: true });
}

export function DiffCanvas(props: Props) {
  const [store] = useState(() => {
    const s = createEditorStore(api);
    load(s, props.doc, props.layout);
    return s;
  });
  useEffect(() => load(store, props.doc, props.layout), [store, props.doc, props.layout]);
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <Flow {...props} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}

function Flow({ graph, selected, onSelect }: Props) {
  const [nodes, setNodes, onNodesChange] = useNodesState<DiffNode>(graph.nodes);
  const flow = useReactFlow<DiffNode, DiffEdge>();
  useEffect(() => setNodes(graph.nodes), [graph.nodes, setNodes]);
  // The list of changes picks a step: show it selected and bring it into view.
  useEffect(() => {
    setNodes((ns) => ns.map((n) => (n.selected === (n.id === selected) ? n : { ...n, selected: n.id === selected })));
    if (selected) void flow.fitView({ nodes: [{ id: selected }], duration: 250, maxZoom: 1, padding: 0.4 });
  }, [selected, setNodes, flow]);

  if (graph.unmapped) {
    return (
      <div className="canvas-empty">
        <h3>The canvas cannot draw this version</h3>
        <p className="muted">{graph.unmapped}</p>
      </div>
    );
  }
  return (
    <div className="vc-canvas" data-testid="compare-canvas">
      <ReactFlow<DiffNode, DiffEdge>
        nodes={nodes}
        edges={graph.edges}
        nodeTypes={diffNodeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={(_, n) => onSelect(n.id)}
        onPaneClick={() => onSelect(null)}
        {...READ_ONLY_FLOW}
      >
        <ReadOnlyBackdrop />
      </ReactFlow>
    </div>
  );
}
