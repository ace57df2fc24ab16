// Auto-layout with elkjs: layered, left to right, loops laid out with their
// inner steps. Returns positions for the layout (kept apart from the document).
import type { ELK as ElkApi, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Layout } from '../doc/types';
import { isContainer, LOOP_HEADER, LOOP_PAD, SINGLE_LOOP_H, SINGLE_LOOP_W, STEP_W, stepHeight, type Graph } from '../graph/mapping';

// elkjs is large: loaded on first use, not with the page.
let elk: Promise<ElkApi> | null = null;

/**
 * In the browser elkjs runs in a Web Worker, so laying out a large document
 * never blocks the page; elsewhere (tests) it runs in place.
 */
function getElk(): Promise<ElkApi> {
  elk ??=
    typeof Worker === 'function'
      ? Promise.all([import('elkjs/lib/elk-api.js'), import('elkjs/lib/elk-worker.min.js?worker')]).then(
          ([api, worker]) => new api.default({ workerFactory: () => new worker.default() }),
        )
      : import('elkjs/lib/elk.bundled.js').then((mod) => new mod.default());
  return elk;
}

/** Starts loading elkjs (without waiting for it). */
export function preloadElk(): void {
  void getElk().catch(() => {
    elk = null;
  });
}

const OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.layered.spacing.nodeNodeBetweenLayers': '80',
  'elk.spacing.nodeNode': '40',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.thoroughness': '1',
};

/**
 * The elk graph of a document's graph: steps as tall as they are drawn
 * (`measured` sizes when the canvas has them, else the estimate from what the
 * node shows), loops sized by their inner steps.
 */
export function elkGraph(graph: Graph, measured?: ReadonlyMap<string, { width: number; height: number }>): ElkNode {
  const byParent = new Map<string, ElkNode[]>();
  const edgesByScope = new Map<string, ElkExtendedEdge[]>();
  const elkNodes = new Map<string, ElkNode>();
  for (const n of graph.nodes) {
    const container = isContainer(n.data.kind);
    const hasChildren = container && n.data.childCount > 0 && n.data.hasInnerSteps;
    const node: ElkNode = {
      id: n.id,
      width: container ? (hasChildren ? undefined : SINGLE_LOOP_W) : Math.max(STEP_W, measured?.get(n.id)?.width ?? 0),
      height: container ? (hasChildren ? undefined : SINGLE_LOOP_H) : Math.max(stepHeight(n.data.step, n.data.kind), measured?.get(n.id)?.height ?? 0),
      layoutOptions: hasChildren
        ? { ...OPTIONS, 'elk.padding': `[top=${LOOP_HEADER},left=${LOOP_PAD},bottom=${LOOP_PAD + 40},right=${LOOP_PAD + 40}]` }
        : undefined,
    };
    elkNodes.set(n.id, node);
    const parent = n.data.scope;
    const list = byParent.get(parent) ?? [];
    list.push(node);
    byParent.set(parent, list);
  }
  for (const e of graph.edges) {
    const scope = e.data?.scope ?? '';
    const list = edgesByScope.get(scope) ?? [];
    list.push({ id: e.id, sources: [e.source], targets: [e.target] });
    edgesByScope.set(scope, list);
  }
  for (const [parent, children] of byParent) {
    if (!parent) continue;
    const p = elkNodes.get(parent);
    if (p) {
      p.children = children;
      p.edges = edgesByScope.get(parent) ?? [];
      if (p.width === undefined) {
        p.width = SINGLE_LOOP_W;
        p.height = SINGLE_LOOP_H;
      }
    }
  }
  for (const n of elkNodes.values()) {
    if (n.width === undefined) {
      n.width = SINGLE_LOOP_W;
      n.height = SINGLE_LOOP_H;
    }
  }
  return {
    id: '__root',
    layoutOptions: { ...OPTIONS, 'elk.padding': '[top=20,left=20,bottom=20,right=20]' },
    children: byParent.get('') ?? [],
    edges: edgesByScope.get('') ?? [],
  };
}

export async function autoLayout(graph: Graph, measured?: ReadonlyMap<string, { width: number; height: number }>): Promise<Layout> {
  const out = await (await getElk()).layout(elkGraph(graph, measured));
  const positions: Layout['positions'] = {};
  const walk = (nodes: ElkNode[] | undefined) => {
    for (const n of nodes ?? []) {
      positions[n.id] = { x: Math.round(n.x ?? 0), y: Math.round(n.y ?? 0) };
      walk(n.children);
    }
  };
  walk(out.children);
  return { version: 1, positions };
}
