// The repeat-until strip draws a window of rounds, never all of them: a run
// can have thousands. The window follows the last round until moved away.

export const STRIP_SIZE = 50;

/** A window's first round, or 'end': the last rounds, following new ones. */
export type StripPos = number | 'end';

export interface StripWindow {
  /** First round shown, and one past the last. */
  start: number;
  end: number;
  atStart: boolean;
  atEnd: boolean;
}

export function stripWindow(count: number, pos: StripPos, size = STRIP_SIZE): StripWindow {
  const lastStart = Math.max(0, count - size);
  const start = pos === 'end' ? lastStart : Math.min(Math.max(0, Math.floor(pos)), lastStart);
  const end = Math.min(count, start + size);
  return { start, end, atStart: start === 0, atEnd: end >= count };
}

/** The window `pages` windows on (negative: back); reaching the last window follows it. */
export function stripStep(count: number, pos: StripPos, pages: number, size = STRIP_SIZE): StripPos {
  const { start } = stripWindow(count, pos, size);
  const next = start + pages * size;
  return next >= count - size ? 'end' : Math.max(0, next);
}

/** The window that shows round `n`: the one it is in, so a chosen round stays in view. */
export function stripAround(count: number, pos: StripPos, n: number, size = STRIP_SIZE): StripPos {
  const { start, end } = stripWindow(count, pos, size);
  if (n >= start && n < end) return pos;
  return stripStep(count, Math.floor(n / size) * size, 0, size);
}
