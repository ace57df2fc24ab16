// Drawing a forEach's items on its canvas: a square per item, one path per
// colour. A patch repaints only the cells whose letter changed.
import { letterStatus } from './bigLabels';
import { cellOrigin, type Grid } from './gridGeometry';

/** Fill colour by item letter. */
export type Colours = Record<string, string>;

/** Browsers refuse canvases much taller than this (in device pixels): past it, draw at one pixel a pixel. */
export const MAX_CANVAS = 16_000;

/** The item colours, from the page's custom properties (bigRun.css): the same as the app's status colours. */
export function readColours(el: Element): Colours {
  const style = getComputedStyle(el);
  const colours: Colours = {};
  for (const letter of ['.', 'r', 'c', 'f', 's', 'x']) {
    colours[letter] = style.getPropertyValue(`--cell-${letterStatus(letter)}`).trim() || '#cfd6e2';
  }
  return colours;
}

/** What paintCells draws with: a canvas 2D context's few methods. */
export type Painter = Pick<CanvasRenderingContext2D, 'fillStyle' | 'beginPath' | 'rect' | 'fill' | 'clearRect'>;

/**
 * Fills the cells of `indices` (all of them when null), one path per colour. Cells repainted one by
 * one are cleared first: at a fractional pixel ratio a cell's soft edge would otherwise mix the old
 * colour into the new.
 */
export function paintCells(ctx: Painter, grid: Grid, letters: string, colours: Colours, indices: readonly number[] | null) {
  const byColour = new Map<string, number[]>();
  const add = (i: number) => {
    const colour = colours[letters[i]] ?? colours['.'];
    const list = byColour.get(colour);
    if (list) list.push(i);
    else byColour.set(colour, [i]);
  };
  if (indices) {
    for (const i of indices) {
      if (i >= grid.count) continue;
      const { x, y } = cellOrigin(grid, i);
      ctx.clearRect(x, y, grid.pitch, grid.pitch);
      add(i);
    }
  } else {
    for (let i = 0; i < grid.count; i++) add(i);
  }
  for (const [colour, list] of byColour) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    for (const i of list) {
      const { x, y } = cellOrigin(grid, i);
      ctx.rect(x, y, grid.cell, grid.cell);
    }
    ctx.fill();
  }
}
