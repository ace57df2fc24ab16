import { describe, expect, it } from 'vitest';
import { gridFor } from './gridGeometry';
import { paintCells, type Painter } from './gridPaint';

const colours = { '.': 'grey', r: 'blue', c: 'green', f: 'red', s: 'amber', x: 'slate' };

/** A context that records what is drawn: the rectangles filled, by colour, and the ones cleared. */
function recorder() {
  const filled: Record<string, [number, number][]> = {};
  const cleared: [number, number][] = [];
  let path: [number, number][] = [];
  const ctx: Painter = {
    fillStyle: '',
    beginPath: () => {
      path = [];
    },
    rect: (x: number, y: number) => {
      path.push([x, y]);
    },
    fill: () => {
      const colour = String(ctx.fillStyle);
      filled[colour] = [...(filled[colour] ?? []), ...path];
    },
    clearRect: (x: number, y: number) => {
      cleared.push([x, y]);
    },
  };
  return { ctx, filled, cleared };
}

describe('paintCells', () => {
  const grid = gridFor(6, 24); // 3 columns of 8 px, 2 rows

  it('paints every cell by its colour, one path per colour', () => {
    const { ctx, filled, cleared } = recorder();
    paintCells(ctx, grid, 'cc.rfx', colours, null);
    expect(filled).toEqual({ green: [[0, 0], [8, 0]], grey: [[16, 0]], blue: [[0, 8]], red: [[8, 8]], slate: [[16, 8]] });
    expect(cleared).toEqual([]);
  });

  it('repaints only the cells named, clearing them first', () => {
    const { ctx, filled, cleared } = recorder();
    paintCells(ctx, grid, 'cc.cfx', colours, [3]);
    expect(filled).toEqual({ green: [[0, 8]] });
    expect(cleared).toEqual([[0, 8]]);
  });

  it('skips indices past the grid and paints an unknown letter as queued', () => {
    const { ctx, filled } = recorder();
    paintCells(ctx, grid, 'cc?cfx', colours, [2, 9]);
    expect(filled).toEqual({ grey: [[16, 0]] });
  });
});
