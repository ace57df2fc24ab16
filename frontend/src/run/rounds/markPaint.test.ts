import { describe, expect, it } from 'vitest';
import { MARK_ROW, paintMarks } from './markPaint';
import type { Point } from './roundSeries';

/** A pen that writes down what it was asked to draw, and in which colour. */
function recorder() {
  const calls: string[] = [];
  const pen = {
    fillStyle: '' as CanvasRenderingContext2D['fillStyle'],
    strokeStyle: '' as CanvasRenderingContext2D['strokeStyle'],
    lineWidth: 1,
    beginPath: () => calls.push('begin'),
    moveTo: (x: number, y: number) => calls.push(`move ${x},${y}`),
    lineTo: (x: number, y: number) => calls.push(`line ${x},${y}`),
    closePath: () => calls.push('close'),
    arc: (x: number, y: number) => calls.push(`arc ${x},${y}`),
    fill: () => calls.push(`fill ${String(pen.fillStyle)}`),
    stroke: () => calls.push(`stroke ${String(pen.strokeStyle)}`),
    save: () => calls.push('save'),
    restore: () => calls.push('restore'),
  };
  return { pen, calls };
}

function point(from: number, pass: number, fail: number, error: number): Point {
  return { from, to: from, rounds: 1, min: {}, mean: {}, max: {}, marks: { pass, fail, error } };
}

describe('paintMarks', () => {
  const colours = { pass: 'green', fail: 'red', error: 'orange' };

  it('draws each kind in its own shape and row, only where a round got it', () => {
    const { pen, calls } = recorder();
    paintMarks(pen, [point(1, 1, 0, 0), point(2, 0, 1, 0), point(3, 0, 0, 2)], (x) => x * 100, 100, 1, colours);
    // A filled triangle for done, in the top row; a filled circle for not done; a stroked cross for an error.
    expect(calls.filter((c) => c.startsWith('fill') || c.startsWith('stroke'))).toEqual(['fill green', 'fill red', 'stroke orange']);
    expect(calls).toContain(`arc 200,${100 - 1.5 * MARK_ROW}`);
    expect(calls.filter((c) => c.startsWith('move')).length).toBe(1 + 2);
    expect(calls[0]).toBe('save');
    expect(calls[calls.length - 1]).toBe('restore');
  });

  it('draws nothing for rounds the judge said nothing on', () => {
    const { pen, calls } = recorder();
    paintMarks(pen, [point(1, 0, 0, 0)], (x) => x, 50, 2, colours);
    expect(calls).toEqual(['save', 'restore']);
  });
});
