import { describe, expect, it } from 'vitest';
import { stripAround, stripStep, stripWindow } from './stripWindow';

describe('stripWindow', () => {
  it('shows the last rounds when following the end', () => {
    expect(stripWindow(120, 'end', 50)).toEqual({ start: 70, end: 120, atStart: false, atEnd: true });
  });

  it('shows everything when there are fewer rounds than a window', () => {
    expect(stripWindow(7, 'end', 50)).toEqual({ start: 0, end: 7, atStart: true, atEnd: true });
    expect(stripWindow(0, 0, 50)).toEqual({ start: 0, end: 0, atStart: true, atEnd: true });
  });

  it('keeps a window inside the rounds', () => {
    expect(stripWindow(120, 50, 50)).toEqual({ start: 50, end: 100, atStart: false, atEnd: false });
    expect(stripWindow(120, 100, 50).start).toBe(70);
    expect(stripWindow(120, -5, 50).start).toBe(0);
  });
});

describe('stripStep', () => {
  it('moves a window back and on', () => {
    expect(stripStep(500, 'end', -1, 50)).toBe(400);
    expect(stripStep(500, 400, -1, 50)).toBe(350);
    expect(stripStep(500, 20, -1, 50)).toBe(0);
    expect(stripStep(500, 0, 1, 50)).toBe(50);
  });

  it('follows the end once it reaches the last window', () => {
    expect(stripStep(500, 400, 1, 50)).toBe('end');
    expect(stripStep(500, 430, 1, 50)).toBe('end');
  });
});

describe('stripAround', () => {
  it('keeps the window when the round is in it', () => {
    expect(stripAround(500, 100, 120, 50)).toBe(100);
    expect(stripAround(500, 'end', 470, 50)).toBe('end');
  });

  it('moves to the window of a round out of view', () => {
    expect(stripAround(500, 'end', 3, 50)).toBe(0);
    expect(stripAround(500, 0, 260, 50)).toBe(250);
    expect(stripAround(500, 0, 499, 50)).toBe('end');
  });
});
