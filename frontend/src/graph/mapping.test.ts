import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deepEqual, type Step, type WorkflowDoc } from '../doc/types';
import { allKeys, locate } from '../doc/keys';
import {
  documentToGraph,
  graphToDocument,
  kindOf,
  layoutOf,
  LOOP_HEADER,
  nodeHintId,
  nodeNameId,
  ranks,
  STEP_W,
  stepHeight,
  type FlowNode,
} from './mapping';

// Upstream examples are read where they live (never copied into the project).
const EXAMPLES = resolve(__dirname, '../../../../shared/zenflow-spec-v1/examples');
const exampleFiles = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f));

function load(file: string): WorkflowDoc {
  const text = readFileSync(join(EXAMPLES, file), 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parse(text)) as WorkflowDoc;
}

function roundTrip(doc: WorkflowDoc): WorkflowDoc {
  const graph = documentToGraph(doc, null);
  return graphToDocument(doc, graph.nodes);
}

const repeatDoc: WorkflowDoc = {
  name: 'rr',
  agents: {
    coder: { description: 'codes' },
    judge: {
      description: 'judges',
      resultSchema: { type: 'object', required: ['done'], properties: { done: { type: 'boolean' } } },
    },
  },
  steps: [
    { id: 'design', agent: 'coder', instructions: 'Design.' },
    {
      id: 'dev',
      dependsOn: ['design'],
      loop: {
        maxIterations: 5,
        untilAgent: 'judge',
        steps: [
          { id: 'implement', agent: 'coder' },
          { id: 'review', agent: 'coder', dependsOn: ['implement'] },
        ],
      },
    },
    { id: 'each', loop: { forEach: ['a', 'b'], maxConcurrency: 2 }, instructions: 'x' },
    { id: 'ship', include: 'deploy', dependsOn: ['dev', 'each'] },
  ],
};

describe('documentToGraph', () => {
  it('has upstream examples to test against', () => {
    expect(exampleFiles.length).toBeGreaterThanOrEqual(18);
  });

  it.each(exampleFiles)('maps %s to a graph and back to an equal document', (file) => {
    const doc = load(file);
    const graph = documentToGraph(doc, null);
    expect(graph.unmapped).toBeNull();
    expect(deepEqual(graphToDocument(doc, graph.nodes), doc)).toBe(true);
  });

  it.each(exampleFiles)('draws one node per step of %s, parents before children', (file) => {
    const doc = load(file);
    const graph = documentToGraph(doc, null);
    expect(graph.nodes.map((n) => n.id)).toEqual(allKeys(doc));
    const seen = new Set<string>();
    for (const n of graph.nodes) {
      if (n.parentId) expect(seen.has(n.parentId)).toBe(true);
      seen.add(n.id);
    }
  });

  it('gives every kind of step its node type', () => {
    const graph = documentToGraph(repeatDoc, null);
    const types = Object.fromEntries(graph.nodes.map((n) => [n.id, n.type]));
    expect(types).toEqual({
      design: 'step',
      dev: 'repeat',
      'dev/implement': 'step',
      'dev/review': 'step',
      each: 'forEach',
      ship: 'include',
    });
  });

  it('puts inner steps inside their loop node', () => {
    const graph = documentToGraph(repeatDoc, null);
    const inner = graph.nodes.filter((n) => n.parentId === 'dev');
    expect(inner.map((n) => n.id)).toEqual(['dev/implement', 'dev/review']);
    for (const n of inner) {
      expect(n.data.scope).toBe('dev');
      expect(n.extent).toBe('parent');
      expect(n.position.y).toBeGreaterThanOrEqual(LOOP_HEADER);
    }
  });

  it('sizes a loop node to hold its inner steps', () => {
    const graph = documentToGraph(repeatDoc, null);
    const dev = graph.nodes.find((n) => n.id === 'dev') as FlowNode;
    for (const child of graph.nodes.filter((n) => n.parentId === 'dev')) {
      expect(child.position.x + STEP_W).toBeLessThanOrEqual(dev.width ?? 0);
      expect(child.position.y).toBeLessThan(dev.height ?? 0);
    }
  });

  it('draws dependsOn as edges from the dependency to the dependent, per scope', () => {
    const graph = documentToGraph(repeatDoc, null);
    expect(graph.edges.map((e) => e.id).sort()).toEqual(
      ['design->dev', 'dev->ship', 'each->ship', 'dev/implement->dev/review'].sort(),
    );
    const inner = graph.edges.find((e) => e.id === 'dev/implement->dev/review');
    expect(inner?.data?.scope).toBe('dev');
  });

  it('draws no edge for a dependency that does not resolve in the scope', () => {
    const doc: WorkflowDoc = {
      name: 'x',
      steps: [
        { id: 'a', dependsOn: ['nowhere'] },
        { id: 'loop', loop: { maxIterations: 2, steps: [{ id: 'in', dependsOn: ['a'] }] } },
      ],
    };
    const graph = documentToGraph(doc, null);
    expect(graph.edges).toEqual([]);
    expect(deepEqual(roundTrip(doc), doc)).toBe(true);
  });

  it('keeps broken documents lossless: duplicate and missing ids, empty loops', () => {
    const doc = {
      name: '',
      extra: { whatever: [1, 2] },
      steps: [
        { id: 'a' },
        { id: 'a', instructions: 'twin' },
        { instructions: 'no id' },
        { id: 'l', loop: { steps: [] } },
        { id: 'm', loop: {} },
        { id: 'n', dependsOn: 'a' },
        { id: 'o', loop: { steps: 'not a list' } },
      ],
    } as unknown as WorkflowDoc;
    const graph = documentToGraph(doc, null);
    expect(graph.unmapped).toBeNull();
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'a#1', '#2', 'l', 'm', 'n', 'o']);
    expect(new Set(graph.nodes.map((n) => n.id)).size).toBe(graph.nodes.length);
    expect(deepEqual(roundTrip(doc), doc)).toBe(true);
  });

  it('reports a document whose steps cannot be drawn instead of throwing', () => {
    expect(documentToGraph({ name: 'x', steps: 'nope' } as unknown as WorkflowDoc, null).unmapped).toMatch(/no list/);
    const odd = { name: 'x', steps: [{ id: 'a' }, 'oops'] } as unknown as WorkflowDoc;
    expect(documentToGraph(odd, null).unmapped).toMatch(/Item 2/);
  });

  it('takes positions from the layout and lays out the rest in dependency order', () => {
    const graph = documentToGraph(repeatDoc, { version: 1, positions: { design: { x: 500, y: 700 } } });
    const pos = Object.fromEntries(graph.nodes.map((n) => [n.id, n.position]));
    expect(pos.design).toEqual({ x: 500, y: 700 });
    expect(pos.ship.x).toBeGreaterThan(pos.dev.x);
    expect(pos['dev/review'].x).toBeGreaterThan(pos['dev/implement'].x);
  });

  it('never lays a step without a saved position on one that has one (a step an undo brought back)', () => {
    const doc: WorkflowDoc = { name: 'two', steps: [{ id: 'a' }, { id: 'b' }] };
    // `b` saved where `a` would be auto-placed (the first column, at the top): `a` moves below it.
    const graph = documentToGraph(doc, { version: 1, positions: { b: { x: 0, y: 0 } } });
    const [a, b] = graph.nodes;
    expect(b.position).toEqual({ x: 0, y: 0 });
    expect(a.position.x).toBe(0);
    expect(a.position.y).toBeGreaterThanOrEqual(stepHeightOf(graph, 'b'));
  });

  it('keeps an inner step below its loop’s header, where the iteration chips are', () => {
    const graph = documentToGraph(repeatDoc, { version: 1, positions: { 'dev/implement': { x: 30, y: 10 }, design: { x: 5, y: -40 } } });
    const pos = Object.fromEntries(graph.nodes.map((n) => [n.id, n.position]));
    expect(pos['dev/implement']).toEqual({ x: 30, y: LOOP_HEADER });
    expect(pos.design).toEqual({ x: 5, y: -40 }); // the top level has no header
  });

  it('is deterministic', () => {
    expect(documentToGraph(repeatDoc, null)).toEqual(documentToGraph(repeatDoc, null));
  });

  it('does not share objects with the document', () => {
    const doc = structuredClone(repeatDoc);
    const graph = documentToGraph(doc, null);
    graph.nodes[0].data.step.instructions = 'changed';
    expect(doc.steps[0].instructions).toBe('Design.');
  });
});

function stepHeightOf(graph: ReturnType<typeof documentToGraph>, id: string): number {
  const node = graph.nodes.find((n) => n.id === id)!;
  return stepHeight(node.data.step as Step, node.data.kind);
}

describe('graphToDocument', () => {
  it('follows the index order of the nodes, not the array order', () => {
    const graph = documentToGraph(repeatDoc, null);
    const shuffled = [...graph.nodes].reverse();
    expect(deepEqual(graphToDocument(repeatDoc, shuffled), repeatDoc)).toBe(true);
  });

  it('never writes UI-only fields into the document', () => {
    const graph = documentToGraph(repeatDoc, { version: 1, positions: { design: { x: 1, y: 2 } } });
    const nodes = graph.nodes.map((n) => ({ ...n, selected: true, dragging: false, measured: { width: 1, height: 2 } }));
    const doc = graphToDocument(repeatDoc, nodes);
    const text = JSON.stringify(doc);
    for (const word of ['position', 'selected', 'measured', 'parentId', '"kind"', '"key"', 'hasInnerSteps']) {
      expect(text).not.toContain(word);
    }
    expect(deepEqual(doc, repeatDoc)).toBe(true);
  });

  it('keeps a loop without inner steps a single-step loop', () => {
    const doc: WorkflowDoc = { name: 'x', steps: [{ id: 'solo', instructions: 'go', loop: { maxIterations: 2, until: 'iteration > 0' } }] };
    const back = roundTrip(doc);
    expect(back.steps[0].loop).toEqual({ maxIterations: 2, until: 'iteration > 0' });
  });
});

describe('layoutOf', () => {
  it('collects rounded positions by node key', () => {
    const graph = documentToGraph(repeatDoc, { version: 1, positions: { design: { x: 10.4, y: 20.6 } } });
    const layout = layoutOf(graph.nodes);
    expect(layout.version).toBe(1);
    expect(layout.positions.design).toEqual({ x: 10, y: 21 });
    expect(Object.keys(layout.positions).sort()).toEqual(allKeys(repeatDoc).sort());
  });

  it('round-trips through documentToGraph', () => {
    const first = documentToGraph(repeatDoc, null);
    const layout = layoutOf(first.nodes);
    const second = documentToGraph(repeatDoc, layout);
    expect(second.nodes.map((n) => n.position)).toEqual(first.nodes.map((n) => n.position));
  });
});

describe('helpers', () => {
  it('tells the kind of a step', () => {
    expect(kindOf({ id: 'a' })).toBe('step');
    expect(kindOf({ id: 'a', include: 'x' })).toBe('include');
    expect(kindOf({ id: 'a', loop: { forEach: 'steps.a.result' } })).toBe('forEach');
    expect(kindOf({ id: 'a', loop: { maxIterations: 1 } })).toBe('repeat');
  });

  it('ranks steps by their longest dependency chain and survives cycles', () => {
    const steps: Step[] = [{ id: 'c', dependsOn: ['b'] }, { id: 'a' }, { id: 'b', dependsOn: ['a'] }];
    expect(ranks(steps)).toEqual([2, 0, 1]);
    const cyc: Step[] = [{ id: 'a', dependsOn: ['b'] }, { id: 'b', dependsOn: ['a'] }];
    expect(ranks(cyc).every((r) => Number.isFinite(r))).toBe(true);
  });

  it('locates steps by key in nested scopes', () => {
    expect(locate(repeatDoc, 'dev/review')?.pointer).toBe('/steps/1/loop/steps/1');
    expect(locate(repeatDoc, 'dev/nothing')).toBeNull();
    expect(locate(repeatDoc, 'ship')?.step.include).toBe('deploy');
  });
});

describe('what a screen reader is given', () => {
  const graph = documentToGraph(repeatDoc, null);

  it('names each edge by the steps it joins, and lets Tab reach it', () => {
    const edge = graph.edges.find((e) => e.id === 'dev/implement->dev/review');
    expect(edge?.ariaLabel).toBe('implement to review, dependency');
    expect(edge?.focusable).toBe(true);
    expect(graph.edges.find((e) => e.id === 'design->dev')?.ariaLabel).toBe('design to dev, dependency');
  });

  it('gives each node a short name and points it at the full name and keys the node draws', () => {
    const review = graph.nodes.find((n) => n.id === 'dev/review')!;
    expect(review.ariaLabel).toBe('step review in dev');
    expect(review.domAttributes).toEqual({ 'aria-labelledby': nodeNameId('dev/review'), 'aria-describedby': nodeHintId('dev/review') });
    expect(graph.nodes.find((n) => n.id === 'dev')?.ariaLabel).toBe('repeat-until loop dev');
  });

  it('makes element ids without spaces from any key, one per key', () => {
    expect(nodeNameId('a b/c')).not.toMatch(/\s/);
    expect(nodeNameId('a b')).not.toBe(nodeNameId('a_b'));
    expect(nodeNameId('x')).not.toBe(nodeHintId('x'));
  });
});
