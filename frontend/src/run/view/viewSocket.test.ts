import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Run } from '../../api/types';
import type { View, ViewPatch } from './merge';
import { keepFinal, RunViewStream } from './viewSocket';

// A stand-in for the browser's WebSocket: the test plays the server's messages.
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((msg: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
  serve(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

const g = globalThis as Record<string, unknown>;
const RUN_ID = '6f1c2b1e-0000-4000-8000-000000000001';

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  g.window = { location: { protocol: 'https:', host: 'loop.test' } };
  g.WebSocket = FakeSocket;
});

afterEach(() => {
  vi.useRealTimers();
  delete g.window;
  delete g.WebSocket;
});

const run = (status: string) => ({ id: RUN_ID, status }) as Run;
const view = (seq: number) => ({ seq, run: {}, steps: {}, loops: {}, items: {} }) as unknown as View;

function watch(runId = RUN_ID) {
  const got = { runs: [] as string[], views: [] as number[], patches: [] as ViewPatch[], states: [] as string[], unavailable: 0 };
  const stream = new RunViewStream(runId, {
    onRun: (r) => got.runs.push(r.status),
    onView: (v) => got.views.push(v.seq),
    onPatch: (p) => got.patches.push(p),
    onState: (s) => got.states.push(s),
    onUnavailable: () => got.unavailable++,
  });
  stream.start();
  return { stream, got, socket: () => FakeSocket.all[FakeSocket.all.length - 1] };
}

describe('RunViewStream', () => {
  it('opens the view socket of the run', () => {
    const { socket } = watch();
    expect(socket().url).toBe(`wss://loop.test/ws/runs/${RUN_ID}/view/`);
  });

  it('hands on the record, the view and the patches that follow it', () => {
    const { got, socket } = watch();
    socket().serve({ kind: 'patch', seq: 1 });
    socket().serve({ kind: 'run', run: run('running') });
    socket().serve({ kind: 'view', view: view(4) });
    socket().serve({ kind: 'patch', seq: 5, items: { each: [[0, 'c']] } });
    expect(got.runs).toEqual(['running']);
    expect(got.views).toEqual([4]);
    expect(got.patches.map((p) => p.seq)).toEqual([5]);
  });

  it('keeps a final status when an older "running" arrives after it', () => {
    const { got, socket } = watch();
    socket().serve({ kind: 'run', run: run('completed') });
    socket().serve({ kind: 'run', run: run('running') });
    expect(got.runs).toEqual(['completed']);
  });

  it('reconnects after a drop and takes the fresh view', () => {
    const { got, socket } = watch();
    socket().serve({ kind: 'view', view: view(4) });
    socket().drop();
    expect(got.states.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    socket().serve({ kind: 'view', view: view(9) });
    expect(got.views).toEqual([4, 9]);
    expect(got.unavailable).toBe(0);
  });

  it('keeps trying once it has had a view', () => {
    const { got, socket } = watch();
    socket().serve({ kind: 'view', view: view(4) });
    for (let i = 0; i < 6; i++) {
      socket().drop();
      vi.advanceTimersByTime(5000);
    }
    expect(FakeSocket.all).toHaveLength(7);
    expect(got.unavailable).toBe(0);
  });

  it('stops once a finished run has been seen whole', () => {
    const { got, socket } = watch();
    socket().serve({ kind: 'view', view: view(4) });
    socket().serve({ kind: 'run', run: run('failed') });
    socket().drop(1000);
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(got.states.at(-1)).toBe('closed');
  });

  it('gives up at once when the server refuses', () => {
    const { got, socket } = watch();
    socket().drop(4404);
    expect(got.unavailable).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('gives up after a few failures before any view', () => {
    const { got, socket } = watch();
    for (let i = 0; i < 3; i++) {
      socket().drop();
      vi.advanceTimersByTime(5000);
    }
    expect(got.unavailable).toBe(1);
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('does not try a run id the server could never route', () => {
    const { got } = watch('not a run');
    expect(FakeSocket.all).toHaveLength(0);
    expect(got.unavailable).toBe(1);
  });

  it('stays quiet after stop', () => {
    const { stream, got, socket } = watch();
    stream.stop();
    socket().drop();
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(got.unavailable).toBe(0);
  });
});

describe('keepFinal', () => {
  it('never lets an active record replace a final one', () => {
    expect(keepFinal(run('completed'), run('running')).status).toBe('completed');
    expect(keepFinal(run('running'), run('paused')).status).toBe('paused');
    expect(keepFinal(null, run('queued')).status).toBe('queued');
    expect(keepFinal(run('paused'), run('cancelled')).status).toBe('cancelled');
  });
});
