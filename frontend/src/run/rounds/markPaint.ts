// The judge's marks above the plot: one row per kind, each with its own shape (a triangle for done,
// a circle for not done, a cross for an error), so the marks read without their colours.
import type { Mark } from './roundRecords';
import { MARKS, type Point } from './roundSeries';
import { MARK_SHAPES } from './roundWords';

/** CSS pixels per row of marks; the chart keeps MARKS.length rows free above the plot. */
export const MARK_ROW = 12;
export const MARK_STRIP = MARK_ROW * MARKS.length;

export type MarkColours = Record<Mark, string>;

type Pen = Pick<CanvasRenderingContext2D, 'beginPath' | 'moveTo' | 'lineTo' | 'closePath' | 'arc' | 'fill' | 'stroke' | 'save' | 'restore'> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  lineWidth: number;
};

function shape(pen: Pen, kind: Mark, x: number, y: number, r: number): void {
  pen.beginPath();
  switch (MARK_SHAPES[kind]) {
    case 'triangle':
      pen.moveTo(x, y - r);
      pen.lineTo(x + r, y + r);
      pen.lineTo(x - r, y + r);
      pen.closePath();
      pen.fill();
      break;
    case 'circle':
      pen.arc(x, y, r, 0, Math.PI * 2);
      pen.fill();
      break;
    case 'cross':
      pen.moveTo(x - r, y - r);
      pen.lineTo(x + r, y + r);
      pen.moveTo(x + r, y - r);
      pen.lineTo(x - r, y + r);
      pen.stroke();
      break;
  }
}

/**
 * Draws each point's marks in the strip that ends at `plotTop` (canvas pixels): a point shows a
 * kind's shape when at least one of its rounds got that mark.
 */
export function paintMarks(pen: Pen, points: readonly Point[], xOf: (round: number) => number, plotTop: number, ratio: number, colours: MarkColours): void {
  const r = 3.5 * ratio;
  pen.save();
  pen.lineWidth = 1.5 * ratio;
  MARKS.forEach((kind, row) => {
    const y = plotTop - (MARKS.length - row - 0.5) * MARK_ROW * ratio;
    pen.fillStyle = colours[kind];
    pen.strokeStyle = colours[kind];
    for (const p of points) if (p.marks[kind]) shape(pen, kind, xOf(p.from), y, r);
  });
  pen.restore();
}
