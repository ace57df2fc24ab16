import { describe, expect, it } from 'vitest';
import type { WorkflowDoc } from '../doc/types';
import { documentToGraph } from './mapping';
import { clearOfKept, compactSpot } from './placement';

const step = { w: 240, h: 96 };

describe('compactSpot', () => {
  it('starts at the origin', () => {
    expect(compactSpot([], step)).toEqual({ x: 0, y: 0 });
  });

  it('never overlaps a node and does not stack everything in one column', () => {
    const boxes: { x: number; y: number; w: number; h: number }[] = [];
    for (let i = 0; i < 8; i++) {
      const p = compactSpot(boxes, step, 1.5);
      for (const b of boxes) {
        const overlap = p.x < b.x + b.w && b.x < p.x + step.w && p.y < b.y + b.h && b.y < p.y + step.h;
        expect(overlap).toBe(false);
      }
      boxes.push({ ...p, ...step });
    }
    const columns = new Set(boxes.map((b) => b.x)).size;
    const rows = new Set(boxes.map((b) => b.y)).size;
    expect(columns).toBeGreaterThan(1);
    expect(rows).toBeGreaterThan(1);
    const width = Math.max(...boxes.map((b) => b.x + b.w));
    const height = Math.max(...boxes.map((b) => b.y + b.h));
    // Far closer to the canvas's shape than one column (8 x 136 = 1088 px tall, 240 wide).
    expect(width / height).toBeGreaterThan(0.8);
  });
});

describe('clearOfKept', () => {
  const doc: WorkflowDoc = { name: 'x', steps: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };
  const graph = documentToGraph(doc, null);

  it('moves a step the layout lacked down past a kept step it would cover, never the kept one', () => {
    // elk put `a` where the user had put `b` (elk did not know `b`'s spot).
    const out = clearOfKept(graph, { a: { x: 0, y: 0 }, b: { x: 10, y: 20 }, c: { x: 500, y: 0 } }, new Set(['b', 'c']));
    expect(out.b).toEqual({ x: 10, y: 20 });
    expect(out.c).toEqual({ x: 500, y: 0 });
    expect(out.a.x).toBe(0);
    expect(out.a.y).toBeGreaterThan(20 + 60);
  });

  it('leaves a step that covers nothing where elk put it', () => {
    const spots = { a: { x: 0, y: 0 }, b: { x: 400, y: 0 } };
    expect(clearOfKept(graph, spots, new Set(['b']))).toEqual(spots);
  });
});
