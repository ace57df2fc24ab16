import { describe, expect, it } from 'vitest';
import { ARROWS, nearestIndex } from './nearestNode';

// A loop (a group node) holding two inner steps side by side, and a step after the loop.
const loop = { left: 0, top: 0, width: 600, height: 200 };
const first = { left: 20, top: 60, width: 200, height: 80 };
const second = { left: 260, top: 60, width: 200, height: 80 };
const after = { left: 700, top: 60, width: 200, height: 80 };

describe('nearestIndex', () => {
  it('moves from an inner step to the next inner step, never to the loop around it', () => {
    // The loop's centre (300, 100) lies just right of the first step's (120, 100): nearer than the second step's.
    expect(nearestIndex(first, [loop, second, after], ARROWS.ArrowRight)).toBe(1);
    expect(nearestIndex(second, [loop, first, after], ARROWS.ArrowRight)).toBe(2);
    expect(nearestIndex(second, [loop, first, after], ARROWS.ArrowLeft)).toBe(1);
  });

  it('still reaches the loop itself from outside it, and finds nothing past the last node', () => {
    expect(nearestIndex(after, [loop], ARROWS.ArrowLeft)).toBe(0);
    expect(nearestIndex(after, [loop, first, second], ARROWS.ArrowRight)).toBe(-1);
  });
});
