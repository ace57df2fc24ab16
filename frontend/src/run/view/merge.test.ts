import { describe, expect, it } from 'vitest';
import { mergePatch, mergeRounds, setLetters, type View, type ViewLoop, type ViewRun } from './merge';
import { viewLoop } from './testLoops';

const loop = (id: string, more: Partial<ViewLoop> = {}): ViewLoop => viewLoop({ id, total: 5, ...more });

const run: ViewRun = {
  status: 'running',
  tokens: { prompt: 10, completion: 5, total: 15 },
  cost_usd: null,
  started: '2026-01-01T00:00:00Z',
  ended: null,
  reason: '',
  total_steps: 2,
  paused: false,
  tools_running: 0,
};

function view(): View {
  return {
    seq: 7,
    run,
    steps: { plan: { status: 'completed', kind: 'agent', started: null, ended: null, duration_ms: 5, tokens: 3, error: null, agent: 'a' } },
    loops: { each: loop('each'), other: loop('other') },
    items: { each: '.....', other: 'cc' },
  };
}

describe('setLetters', () => {
  it('sets letters in place', () => {
    expect(setLetters('.....', [[0, 'c'], [3, 'r']])).toBe('c..r.');
  });

  it('pads with queued items past the end', () => {
    expect(setLetters('cc', [[5, 'f']])).toBe('cc...f');
    expect(setLetters('', [[0, 'r']])).toBe('r');
  });

  it('leaves the string alone without changes', () => {
    const s = 'c.r';
    expect(setLetters(s, [])).toBe(s);
  });
});

describe('mergePatch', () => {
  it('takes the seq and replaces the run when given', () => {
    const before = view();
    const next = mergePatch(before, { seq: 9, run: { ...run, status: 'completed' } });
    expect(next.seq).toBe(9);
    expect(next.run.status).toBe('completed');
    expect(before.seq).toBe(7);
    expect(before.run.status).toBe('running');
  });

  it('replaces named steps and loops whole, keeping the others', () => {
    const before = view();
    const each = loop('each', { counts: { completed: 1 } });
    const next = mergePatch(before, {
      seq: 8,
      steps: { review: { status: 'running', kind: 'agent', started: null, ended: null, duration_ms: null, tokens: 0, error: null, agent: null } },
      loops: { each },
    });
    expect(Object.keys(next.steps)).toEqual(['plan', 'review']);
    expect(next.steps.plan).toBe(before.steps.plan);
    expect(next.loops.each).toBe(each);
    expect(next.loops.other).toBe(before.loops.other);
    expect(before.loops.each.counts).toEqual({});
  });

  it('copies only what changed', () => {
    const before = view();
    const next = mergePatch(before, { seq: 8, loops: { each: loop('each') } });
    expect(next.steps).toBe(before.steps);
    expect(next.items).toBe(before.items);
    expect(next.run).toBe(before.run);
  });

  it('sets item letters, padding past the end, and rebuilds only the loops named', () => {
    const before = view();
    const next = mergePatch(before, { seq: 8, items: { each: [[0, 'c'], [1, 'r']], other: [[4, 'f']] } });
    expect(next.items.each).toBe('cr...');
    expect(next.items.other).toBe('cc..f');
    expect(before.items).toEqual({ each: '.....', other: 'cc' });
    const again = mergePatch(next, { seq: 9, items: { each: [[1, 'c']] } });
    expect(again.items.other).toBe(next.items.other);
  });

  it('replaces whole strings with items_full (a loop that started over)', () => {
    const next = mergePatch(view(), { seq: 8, items_full: { each: '...' } });
    expect(next.items.each).toBe('...');
    expect(next.items.other).toBe('cc');
  });

  it('starts the string of a loop it has not seen', () => {
    const next = mergePatch(view(), { seq: 8, items: { fresh: [[2, 'r']] } });
    expect(next.items.fresh).toBe('..r');
  });
});

describe('mergeRounds', () => {
  const bucket = (n: number) => ({ n, status: { completed: n }, tokens: n * 10 });
  const held = { width: 1, span: 3, fields: [], buckets: { '0': bucket(1), '2': bucket(1) } };

  it('replaces the touched buckets and keeps the rest', () => {
    const next = mergeRounds(held, { full: false, width: 1, span: 4, fields: [], buckets: { '3': bucket(1), '2': bucket(1) } });
    expect(Object.keys(next.buckets).sort()).toEqual(['0', '2', '3']);
    expect(next.buckets['0']).toBe(held.buckets['0']);
    expect(next.span).toBe(4);
  });

  it('takes a full patch whole (the width doubled)', () => {
    const next = mergeRounds(held, { full: true, width: 2, span: 4, fields: [], buckets: { '1': bucket(2) } });
    expect(next).toEqual({ width: 2, span: 4, fields: [], buckets: { '1': bucket(2) } });
  });

  it('is what mergePatch does with a patch that names a loop’s rounds', () => {
    const base = { ...view(), rounds: { each: held } };
    const next = mergePatch(base, { seq: 8, rounds: { other: { full: true, width: 1, span: 1, fields: [], buckets: { '0': bucket(1) } } } });
    expect(next.rounds?.each).toBe(held);
    expect(next.rounds?.other?.span).toBe(1);
    expect(mergePatch(view(), { seq: 8 }).rounds).toBeUndefined();
  });
});

describe('mergePatch and the messages', () => {
  it('takes the mail whole when a patch carries it, and keeps it when not', () => {
    const before = view();
    expect(before.mail).toBeUndefined(); // a view stored before messages existed
    const mail = {
      counts: { sent: 2, forwarded: 1, drained: 2, dropped: 1 },
      dropped: { 'target-terminal': 1 },
      recent: [{ id: 'msg-send-1', sender: 'a', to: 'coordinator', kind: 'info', text: 'hi', state: 'drained' as const, reason: null, at: null }],
      narration: [{ text: 'a said hi', at: null }],
      synthesis: null,
      warning: null,
    };
    const after = mergePatch(before, { seq: 8, mail });
    expect(after.mail).toEqual(mail);
    expect(after.steps).toBe(before.steps);
    const later = mergePatch(after, { seq: 9, run: { ...run, status: 'completed' } });
    expect(later.mail).toBe(after.mail);
  });
});
