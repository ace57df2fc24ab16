import { describe, expect, it } from 'vitest';
import { cellAt, cellOrigin, changedIndices, gridFor, moveCursor } from './gridGeometry';

describe('gridFor', () => {
  it('wraps cells to the width', () => {
    const g = gridFor(100, 160);
    expect(g.pitch).toBe(8);
    expect(g.columns).toBe(20);
    expect(g.rows).toBe(5);
    expect(g.width).toBe(160);
    expect(g.height).toBe(40);
  });

  it('keeps one column however narrow', () => {
    expect(gridFor(3, 2).columns).toBe(1);
  });

  it('uses smaller cells for very long lists', () => {
    expect(gridFor(20_000, 800).pitch).toBe(8);
    expect(gridFor(30_000, 800).pitch).toBe(6);
    expect(gridFor(200_000, 800).pitch).toBe(4);
  });

  it('has no rows without items', () => {
    expect(gridFor(0, 800).rows).toBe(0);
  });
});

describe('cellAt and cellOrigin', () => {
  const g = gridFor(45, 80); // 10 columns of 8 px, 5 rows

  it('finds the item under a point', () => {
    expect(cellAt(g, 0, 0)).toBe(0);
    expect(cellAt(g, 7.9, 7.9)).toBe(0);
    expect(cellAt(g, 8, 0)).toBe(1);
    expect(cellAt(g, 3, 9)).toBe(10);
    expect(cellAt(g, 79, 35)).toBeNull();
  });

  it('finds nothing outside the grid or past the last item', () => {
    expect(cellAt(g, -1, 0)).toBeNull();
    expect(cellAt(g, 80, 0)).toBeNull();
    expect(cellAt(g, 0, 40)).toBeNull();
    expect(cellAt(g, 5 * 8, 4 * 8)).toBeNull();
    expect(cellAt(g, 4 * 8, 4 * 8)).toBe(44);
  });

  it('round-trips index to point to index', () => {
    for (let i = 0; i < g.count; i++) {
      const { x, y } = cellOrigin(g, i);
      expect(cellAt(g, x + 1, y + 1)).toBe(i);
    }
    expect(cellOrigin(g, 23)).toEqual({ x: 24, y: 16 });
  });
});

describe('moveCursor', () => {
  const g = gridFor(45, 80);

  it('moves by one and by a row', () => {
    expect(moveCursor(g, 12, 'ArrowRight')).toBe(13);
    expect(moveCursor(g, 12, 'ArrowLeft')).toBe(11);
    expect(moveCursor(g, 12, 'ArrowDown')).toBe(22);
    expect(moveCursor(g, 12, 'ArrowUp')).toBe(2);
  });

  it('stays inside the grid', () => {
    expect(moveCursor(g, 0, 'ArrowLeft')).toBe(0);
    expect(moveCursor(g, 44, 'ArrowRight')).toBe(44);
    expect(moveCursor(g, 3, 'ArrowUp')).toBe(3);
    expect(moveCursor(g, 38, 'ArrowDown')).toBe(38);
    expect(moveCursor(g, 34, 'ArrowDown')).toBe(44);
  });

  it('jumps to the ends and by pages', () => {
    expect(moveCursor(g, 20, 'Home')).toBe(0);
    expect(moveCursor(g, 20, 'End')).toBe(44);
    expect(moveCursor(g, 43, 'PageUp')).toBe(3);
    expect(moveCursor(g, 3, 'PageDown')).toBe(43);
    expect(moveCursor(gridFor(500, 80), 5, 'PageDown')).toBe(105);
    expect(moveCursor(gridFor(500, 80), 205, 'PageUp')).toBe(105);
  });

  it('starts at the first item (End: the last) and ignores other keys', () => {
    expect(moveCursor(g, null, 'ArrowDown')).toBe(0);
    expect(moveCursor(g, null, 'End')).toBe(44);
    expect(moveCursor(g, 4, 'a')).toBeNull();
    expect(moveCursor(g, null, 'Enter')).toBeNull();
    expect(moveCursor(gridFor(0, 80), null, 'ArrowDown')).toBeNull();
  });
});

describe('changedIndices', () => {
  it('lists the letters that differ', () => {
    expect(changedIndices('..rc.', '.crc.')).toEqual([1]);
    expect(changedIndices('.....', '.....')).toEqual([]);
  });

  it('counts a grown or shrunk string as changed at the ends', () => {
    expect(changedIndices('cc', 'ccr.')).toEqual([2, 3]);
    expect(changedIndices('ccr', 'c')).toEqual([1, 2]);
  });
});
