// The React Flow canvas of the editor and of the run view: the document drawn
// as nodes (one component per kind, from the registry), edits by drag, drop,
// connect and keyboard, each going through the store.
import { memo, useCallback, useEffect, useMemo, useRef, type DragEvent } from 'react';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { connect } from '../doc/ops';
import { isObject } from '../doc/types';
import { parentKey } from '../doc/keys';
import { documentToGraph, isContainer, type FlowEdge, type FlowNode } from '../graph/mapping';
import { addNode } from '../nodes/add';
import { ProblemsContext } from '../nodes/common/problemCounts';
import { nodeTypes, paletteItem } from '../nodes/registry';
import { PALETTE_MIME } from '../nodes/types';
import { useEditor, useEditorStore } from '../store/context';
import { deleteSelection } from './deleteSelection';
import { ARROWS, nearestNode } from './nearestNode';
import { useProblemCounts } from './useProblemCounts';
import { useFitOnOpen } from './useFitOnOpen';
/** Everything a node's rendering depends on, as one comparable string. */
function nodeSignature(n: FlowNode, selected: boolean, readOnly: boolean): string {
  const d = n.data;
  return [
    JSON.stringify(d.step),
    d.scope,
    d.index,
    d.kind,
    d.hasInnerSteps,
    d.childCount,
    n.position.x,
    n.position.y,
    n.width ?? '',
    n.height ?? '',
    n.parentId ?? '',
    selected,
    readOnly,
  ].join('|');
}

export const Canvas = memo(function Canvas() {
  const store = useEditorStore();
  const doc = useEditor((s) => s.doc);
  const layout = useEditor((s) => s.layout);
  const selection = useEditor((s) => s.selection);
  const selectedKeys = useEditor((s) => s.selectedKeys);
  const readOnly = useEditor((s) => s.readOnly);
  const problems = useProblemCounts();
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const flow = useReactFlow<FlowNode, FlowEdge>();

  const graph = useMemo(() => documentToGraph(doc, layout), [doc, layout]);

  const fitNonce = useEditor((s) => s.fitNonce);
  const frame = useRef<HTMLDivElement>(null);
  const selectedStep = useCallback(() => {
    const chosen = store.getState().selection;
    return chosen?.kind === 'step' ? chosen.key : null;
  }, [store]);
  const { onMoveStart } = useFitOnOpen(frame, fitNonce, graph.nodes.length, selectedStep);

  // Pan to pasted or duplicated steps that landed out of view (at the zoom the user chose), once they are drawn.
  const revealNonce = useEditor((s) => s.revealNonce);
  useEffect(() => {
    if (!revealNonce) return;
    const t = setTimeout(() => {
      const keys = store.getState().revealKeys.filter((k) => flow.getNode(k));
      const el = document.querySelector('.canvas .react-flow');
      if (keys.length === 0 || !el) return;
      const b = flow.getNodesBounds(keys);
      const r = el.getBoundingClientRect();
      const tl = flow.flowToScreenPosition({ x: b.x, y: b.y });
      const br = flow.flowToScreenPosition({ x: b.x + b.width, y: b.y + b.height });
      if (tl.x >= r.left && tl.y >= r.top && br.x <= r.right && br.y <= r.bottom) return;
      void flow.setCenter(b.x + b.width / 2, b.y + b.height / 2, { zoom: flow.getZoom(), duration: 200 });
    }, 30);
    return () => clearTimeout(t);
  }, [revealNonce, flow, store]);

  const selectedKey = selection?.kind === 'step' ? selection.key : null;
  const selectedSet = useMemo(() => new Set(selectedKey ? [...selectedKeys, selectedKey] : selectedKeys), [selectedKeys, selectedKey]);
  const selectedEdge = selection?.kind === 'edge' ? selection.id : null;
  // Nodes and edges keep their identity while unchanged, so that an edit of
  // one step re-renders one node, not the whole canvas.
  const nodeCache = useRef(new Map<string, { sig: string; node: FlowNode }>());
  const edgeCache = useRef(new Map<string, { sig: string; edge: FlowEdge }>());
  const nodes = useMemo(() => {
    const next = new Map<string, { sig: string; node: FlowNode }>();
    const out = graph.nodes.map((n) => {
      const m = measured.current.get(n.id);
      const container = isContainer(n.data.kind);
      const selected = selectedSet.has(n.id);
      const sig = nodeSignature(n, selected, readOnly);
      const prev = nodeCache.current.get(n.id);
      if (prev && prev.sig === sig) {
        next.set(n.id, prev);
        return prev.node;
      }
      const node: FlowNode = { ...n, selected };
      if (m && !container) node.measured = m;
      else if (container) node.measured = { width: n.width, height: n.height };
      if (readOnly) node.draggable = true;
      next.set(n.id, { sig, node });
      return node;
    });
    nodeCache.current = next;
    return out;
  }, [graph, selectedSet, readOnly]);
  const edges = useMemo(() => {
    const next = new Map<string, { sig: string; edge: FlowEdge }>();
    const out = graph.edges.map((e) => {
      const selected = e.id === selectedEdge;
      const sig = `${e.source}|${e.target}|${selected}`;
      const prev = edgeCache.current.get(e.id);
      if (prev && prev.sig === sig) {
        next.set(e.id, prev);
        return prev.edge;
      }
      const edge: FlowEdge = { ...e, selected, className: selected ? 'edge-selected' : undefined };
      next.set(e.id, { sig, edge });
      return edge;
    });
    edgeCache.current = next;
    return out;
  }, [graph, selectedEdge]);

  // Box selection (Shift+drag): React Flow reports the nodes in the box as select changes while the
  // box is drawn; they join what was selected before, as Shift does in Figma.
  const box = useRef<{ before: string[]; inBox: Set<string> } | null>(null);
  const boxEndedAt = useRef(0);
  const onSelectionStart = useCallback(() => {
    box.current = { before: store.getState().selectedKeys, inBox: new Set() };
  }, [store]);
  const onSelectionEnd = useCallback(() => {
    const b = box.current;
    box.current = null;
    boxEndedAt.current = Date.now();
    if (b && b.inBox.size > 0) store.getState().selectSteps([...b.before, ...b.inBox]);
  }, [store]);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      let positions: Record<string, { x: number; y: number }> | null = null;
      for (const c of changes) {
        if (c.type === 'select' && box.current) {
          if (c.selected) box.current.inBox.add(c.id);
          else box.current.inBox.delete(c.id);
        } else if (c.type === 'dimensions' && c.dimensions) {
          measured.current.set(c.id, c.dimensions);
        } else if (c.type === 'position' && c.position) {
          positions ??= { ...store.getState().layout.positions };
          positions[c.id] = { x: Math.round(c.position.x), y: Math.round(c.position.y) };
        }
      }
      if (positions) store.getState().setLayout({ version: 1, positions });
    },
    [store],
  );

  const onEdgesChange = useCallback((_changes: EdgeChange<FlowEdge>[]) => {
    // Edges follow dependsOn; selection and deletion go through the store.
  }, []);

  const onConnect = useCallback(
    (c: Connection) => {
      if (!c.source || !c.target) return;
      const { doc: current } = store.getState();
      store.getState().applyDoc(connect(current, c.source, c.target));
    },
    [store],
  );

  const isValidConnection = useCallback(
    (c: Connection | FlowEdge) => c.source !== c.target && parentKey(c.source) === parentKey(c.target),
    [],
  );

  const onDrop = useCallback(
    (e: DragEvent) => {
      const item = paletteItem(e.dataTransfer.getData(PALETTE_MIME));
      if (!item) return;
      e.preventDefault();
      const point = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      // The innermost loop under the drop point takes a plain step.
      let scope = '';
      let origin = { x: 0, y: 0 };
      if (item.inner) {
        for (const n of flow.getNodes()) {
          if (!isContainer(n.data.kind) || n.parentId) continue;
          const w = n.width ?? 0;
          const h = n.height ?? 0;
          if (point.x >= n.position.x && point.x <= n.position.x + w && point.y >= n.position.y && point.y <= n.position.y + h) {
            scope = n.id;
            origin = n.position;
          }
        }
      }
      addNode(store, item, { x: Math.round(point.x - origin.x - 20), y: Math.round(point.y - origin.y - 20) }, scope);
    },
    [flow, store],
  );

  // Nodes by keyboard: Enter or Space opens the focused node in the inspector, Delete removes it, and
  // the arrow keys move focus to the nearest node that way (React Flow would move the node instead).
  const onNodeKey = useCallback(
    (e: React.KeyboardEvent<HTMLDivElement>) => {
      const target = e.target as Element;
      if (target.classList?.contains('react-flow__edge')) {
        // A focused dependency (Tab reaches edges): Enter or Space opens it in the inspector, as a click
        // does; Delete removes it.
        const edge = flow.getEdge(target.getAttribute('data-id') ?? '');
        const remove = (e.key === 'Delete' || e.key === 'Backspace') && !store.getState().readOnly;
        if (edge && (remove || e.key === 'Enter' || e.key === ' ')) {
          e.preventDefault();
          e.stopPropagation();
          store.getState().select({ kind: 'edge', id: edge.id, source: edge.source, target: edge.target });
          if (remove) deleteSelection(store);
        }
        return;
      }
      if (!(target instanceof HTMLElement) || !target.classList.contains('react-flow__node')) return;
      const key = target.getAttribute('data-id');
      if (!key) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        store.getState().select({ kind: 'step', key });
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && !store.getState().readOnly) {
        e.preventDefault();
        e.stopPropagation();
        // The focused node alone, unless it is one of several selected: then all of them.
        if (!store.getState().selectedKeys.includes(key)) store.getState().select({ kind: 'step', key });
        deleteSelection(store);
      } else if (e.key in ARROWS) {
        e.preventDefault();
        e.stopPropagation();
        nearestNode(target, ARROWS[e.key])?.focus();
      }
    },
    [store, flow],
  );

  if (graph.unmapped) {
    return (
      <div className="canvas-empty">
        <h3>The canvas cannot draw this document</h3>
        <p className="muted">{graph.unmapped}</p>
      </div>
    );
  }

  return (
    <ProblemsContext.Provider value={problems}>
      <div className="canvas" ref={frame} onDragOver={(e) => e.preventDefault()} onDrop={onDrop} onKeyDownCapture={onNodeKey} data-testid="canvas">
        <ReactFlow<FlowNode, FlowEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          isValidConnection={isValidConnection}
          onNodeDragStart={() => store.getState().setLayout(store.getState().layout, { history: true })}
          onNodeClick={(e, n) => {
            if (e.shiftKey || e.metaKey || e.ctrlKey) store.getState().toggleStep(n.id);
            else store.getState().select({ kind: 'step', key: n.id });
          }}
          onEdgeClick={(_, e) => store.getState().select({ kind: 'edge', id: e.id, source: e.source, target: e.target })}
          onPaneClick={() => {
            // The click that ends a box selection is no click on the empty canvas.
            if (Date.now() - boxEndedAt.current > 200) store.getState().select({ kind: 'workflow' });
          }}
          onSelectionStart={onSelectionStart}
          onSelectionEnd={onSelectionEnd}
          nodesConnectable={!readOnly}
          nodesDraggable
          elementsSelectable
          deleteKeyCode={null}
          selectionKeyCode="Shift"
          multiSelectionKeyCode={null}
          onMoveStart={onMoveStart}
          minZoom={0.05}
          maxZoom={1.75}
          onlyRenderVisibleElements={nodes.length > DRAW_ALL_BELOW}
          proOptions={{ hideAttribution: true }}
          ariaLabelConfig={A11Y_WORDS}
          defaultEdgeOptions={{ type: 'smoothstep' }}
        >
          <Background gap={20} size={1} color="var(--grid-dot)" />
          <MiniMap
            pannable
            zoomable
            nodeColor={(n) => (isObject(n.data) && typeof n.type === 'string' && n.type !== 'step' && n.type !== 'include' ? 'var(--accent-soft)' : 'var(--neutral-soft)')}
            nodeStrokeColor="var(--handle)"
            style={{ width: 150, height: 96 }}
            ariaLabel="Overview of the workflow"
          />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </ProblemsContext.Provider>
  );
});

/**
 * React Flow's words for a screen reader, as this canvas's keys work. (Nodes point at their own keys hint,
 * graph/mapping.ts nodeHintId; React Flow's speaks of moving nodes with the arrows.)
 */
const A11Y_WORDS = {
  'edge.a11yDescription.default': 'Enter opens this dependency in the inspector. Delete removes it.',
};

export { READABLE_ZOOM } from './fitReadable';

/**
 * Up to this many nodes every one is drawn, in view or not: a graph too wide to read whole opens at its start
 * (fitReadable), and the steps past the right edge stay in the page for the keyboard (Tab, the arrow keys) and
 * assistive technology. Past it, only what is in view is drawn, so a huge graph stays quick.
 */
const DRAW_ALL_BELOW = 200;

