import { describe, expect, it } from 'vitest';
import { fitReadable, READABLE_ZOOM } from './fitReadable';

/** A React Flow instance reduced to what fitReadable asks of it: nodes in a row, 240x100 each, 80 apart. */
function fakeFlow(count: number) {
  const nodes = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, position: { x: i * 320, y: 0 }, width: 240, height: 100, data: {} }));
  let viewport = { x: 0, y: 0, zoom: 1 };
  const flow = {
    getNodes: () => nodes,
    getNodesBounds: () => ({ x: 0, y: 0, width: (count - 1) * 320 + 240, height: 100 }),
    getInternalNode: (id: string) => {
      const n = nodes.find((m) => m.id === id);
      return n && { internals: { positionAbsolute: n.position }, measured: { width: 240, height: 100 }, width: 240, height: 100 };
    },
    setViewport: (v: typeof viewport) => {
      viewport = v;
      return Promise.resolve(true);
    },
  };
  return { flow: flow as unknown as Parameters<typeof fitReadable>[0], viewport: () => viewport };
}

const box = (width: number, height: number) => ({ getBoundingClientRect: () => ({ width, height }) }) as unknown as Element;

describe('fitReadable', () => {
  it('centres a graph that fits, at zoom 1 at most', () => {
    const { flow, viewport } = fakeFlow(2);
    expect(fitReadable(flow, box(1000, 500))).toBe(true);
    const v = viewport();
    expect(v.zoom).toBe(1);
    expect(v.x).toBeCloseTo((1000 - 560) / 2);
  });

  it('shows a graph too wide to read whole from its first step, never cut at the left', () => {
    const { flow, viewport } = fakeFlow(6);
    fitReadable(flow, box(900, 500));
    const v = viewport();
    expect(v.zoom).toBe(READABLE_ZOOM);
    expect(v.x).toBe(32);
  });

  it('keeps the chosen step in view when the graph is too wide', () => {
    const { flow, viewport } = fakeFlow(6);
    fitReadable(flow, box(900, 500), 's5');
    const v = viewport();
    const right = (5 * 320 + 240) * v.zoom + v.x;
    expect(right).toBeLessThanOrEqual(900 - 32 + 0.01);
  });

  it('does nothing in a box not laid out yet', () => {
    const { flow } = fakeFlow(2);
    expect(fitReadable(flow, box(0, 0))).toBe(false);
  });
});
