import { describe, expect, it } from 'vitest';
import type { Node } from '@xyflow/react';
import { boundsOfAll } from './fitAll';

const flowOf = (nodes: Partial<Node>[]) => ({ getNodes: () => nodes.map((n, i) => ({ id: `n${i}`, data: {}, position: { x: 0, y: 0 }, ...n }) as Node) });

describe('boundsOfAll', () => {
  it('counts steps never drawn (no measured size) with an estimated size', () => {
    const b = boundsOfAll(flowOf([
      { position: { x: 0, y: 0 }, measured: { width: 100, height: 50 } },
      { position: { x: 900, y: 400 } }, // out of view, never measured
    ]));
    expect(b).toEqual({ x: 0, y: 0, width: 900 + 220, height: 400 + 90 });
  });

  it('leaves inner steps to their loop box and has nothing to fit without nodes', () => {
    expect(boundsOfAll(flowOf([]))).toBeNull();
    const b = boundsOfAll(flowOf([
      { position: { x: 10, y: 20 }, style: { width: 500, height: 300 } },
      { position: { x: 5000, y: 5000 }, parentId: 'n0' },
    ]));
    expect(b).toEqual({ x: 10, y: 20, width: 500, height: 300 });
  });
});
