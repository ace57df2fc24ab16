import { describe, expect, it } from 'vitest';
import type { View, ViewLoop } from './merge';
import { viewLoop } from './testLoops';

const loop = (total: number | null): ViewLoop => viewLoop({ total });
import { BIG_LOOP, BIG_SEQ, isBigView, runMode } from './mode';

function view(seq: number, total: number | null = null, letters = ''): View {
  return {
    seq,
    run: { status: 'running', tokens: { prompt: 0, completion: 0, total: 0 }, cost_usd: null, started: null, ended: null, reason: '', total_steps: null, paused: false, tools_running: 0 },
    steps: {},
    loops: total === null && !letters ? {} : { each: loop(total) },
    items: letters ? { each: letters } : {},
  };
}

describe('isBigView', () => {
  it('is big past 500 items in a loop', () => {
    expect(isBigView(view(10, BIG_LOOP))).toBe(false);
    expect(isBigView(view(10, BIG_LOOP + 1))).toBe(true);
  });

  it('is big past 20,000 events', () => {
    expect(isBigView(view(BIG_SEQ))).toBe(false);
    expect(isBigView(view(BIG_SEQ + 1))).toBe(true);
  });

  it('counts the letters of a loop whose size was not announced', () => {
    expect(isBigView(view(10, null, 'c'.repeat(BIG_LOOP + 1)))).toBe(true);
    expect(isBigView(view(10, null, 'c'.repeat(3)))).toBe(false);
  });
});

describe('runMode', () => {
  it('waits for the first view', () => {
    expect(runMode(null, 'loading')).toBe('loading');
  });

  it('decides on the first view', () => {
    expect(runMode(view(3), 'loading')).toBe('normal');
    expect(runMode(view(3, 20_000), 'loading')).toBe('big');
  });

  it('falls back to the normal page when the view socket cannot be had', () => {
    expect(runMode(null, 'loading', true)).toBe('normal');
  });

  it('turns big when a watched run grows, and never back', () => {
    expect(runMode(view(3), 'normal')).toBe('normal');
    expect(runMode(view(900, 20_000), 'normal')).toBe('big');
    expect(runMode(view(3), 'big')).toBe('big');
    expect(runMode(null, 'big')).toBe('big');
  });

  it('keeps the normal page when the view goes away (a reconnect)', () => {
    expect(runMode(null, 'normal')).toBe('normal');
  });
});
