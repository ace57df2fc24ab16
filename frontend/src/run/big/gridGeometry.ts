// Where each item of a forEach sits on its canvas: cells in rows, wrapping to
// the width. Cells shrink for very long lists so the canvas stays a size a
// browser will draw.

export interface Grid {
  count: number;
  columns: number;
  rows: number;
  /** A cell and the gap after it, in CSS pixels. */
  pitch: number;
  /** The coloured square. */
  cell: number;
  width: number;
  height: number;
}

/** Cell pitches tried, largest first, and the tallest the grid may grow at each before a smaller one is used. */
const PITCHES: [pitch: number, maxHeight: number][] = [
  [8, 1600],
  [6, 2400],
  [4, Infinity],
];

export function gridFor(count: number, width: number): Grid {
  const n = Math.max(0, Math.floor(count));
  for (const [pitch, maxHeight] of PITCHES) {
    const columns = Math.max(1, Math.floor(width / pitch));
    const rows = Math.ceil(n / columns);
    if (rows * pitch <= maxHeight) return { count: n, columns, rows, pitch, cell: pitch - 1, width: columns * pitch, height: rows * pitch };
  }
  throw new Error('unreachable: the last pitch takes any height');
}

/** The item under a point of the canvas (CSS pixels), or null. The gap after a cell counts as the cell. */
export function cellAt(grid: Grid, x: number, y: number): number | null {
  if (x < 0 || y < 0) return null;
  const column = Math.floor(x / grid.pitch);
  const row = Math.floor(y / grid.pitch);
  if (column >= grid.columns || row >= grid.rows) return null;
  const index = row * grid.columns + column;
  return index < grid.count ? index : null;
}

/** The top left corner of an item's cell, in CSS pixels. */
export function cellOrigin(grid: Grid, index: number): { x: number; y: number } {
  return { x: (index % grid.columns) * grid.pitch, y: Math.floor(index / grid.columns) * grid.pitch };
}

/** Where a key moves the cursor (null: the key is not a move). Up and down keep the column; nothing leaves the grid. */
export function moveCursor(grid: Grid, from: number | null, key: string): number | null {
  if (!grid.count) return null;
  const last = grid.count - 1;
  if (from === null) return ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(key) ? (key === 'End' ? last : 0) : null;
  const at = Math.min(Math.max(from, 0), last);
  const vertical = (by: number) => (at + by >= 0 && at + by <= last ? at + by : at);
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, at - 1);
    case 'ArrowRight':
      return Math.min(last, at + 1);
    case 'ArrowUp':
      return vertical(-grid.columns);
    case 'ArrowDown':
      return vertical(grid.columns);
    case 'PageUp':
      return at - grid.columns * Math.min(10, Math.floor(at / grid.columns));
    case 'PageDown':
      return at + grid.columns * Math.min(10, Math.floor((last - at) / grid.columns));
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** The indices whose letter differs between two item strings (an index only one of them has differs). */
export function changedIndices(before: string, after: string): number[] {
  const out: number[] = [];
  const n = Math.max(before.length, after.length);
  for (let i = 0; i < n; i++) if (before.charCodeAt(i) !== after.charCodeAt(i)) out.push(i);
  return out;
}
