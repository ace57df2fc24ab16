import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../api/events.gen';
import type { Run } from '../api/types';
import { RunStream } from './socket';

// A stand-in for the browser's WebSocket: the test plays the server's messages.
class FakeSocket {
  static last: FakeSocket | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((msg: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.last = this;
  }
  close() {}
  serve(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const g = globalThis as Record<string, unknown>;

beforeEach(() => {
  g.window = { location: { protocol: 'http:', host: 'loop.test' } };
  g.document = { visibilityState: 'hidden' };
  g.WebSocket = FakeSocket;
});

afterEach(() => {
  delete g.window;
  delete g.document;
  delete g.WebSocket;
});

function run(status: string): Run {
  return { id: 'r1', status } as Run;
}

function watch() {
  const statuses: string[] = [];
  const events: RunEvent[] = [];
  const stream = new RunStream('r1', {
    onEvents: (batch) => events.push(...batch),
    onRun: (r) => statuses.push(r.status),
    onState: () => {},
    lastSeq: () => events.at(-1)?.seq ?? 0,
  });
  stream.start();
  return { stream, statuses, events, socket: FakeSocket.last! };
}

describe('RunStream', () => {
  it('asks for events after the last seq, in batches', () => {
    const { socket } = watch();
    expect(socket.url).toBe('ws://loop.test/ws/runs/r1/?after=0&batch=1');
  });

  it('keeps a final status when an older "running" arrives after it', () => {
    const { statuses, events, socket } = watch();
    socket.serve({ kind: 'run', run: run('running') });
    socket.serve({ kind: 'events', events: [{ type: 'workflow_end', seq: 7, timestamp: '', runId: 'r1' }] });
    socket.serve({ kind: 'run', run: run('cancelled') });
    socket.serve({ kind: 'run', run: run('running') });
    expect(statuses).toEqual(['running', 'cancelled']);
    expect(events.map((e) => e.seq)).toEqual([7]); // flushed before the status
  });

  it('follows pause and resume while the run is live', () => {
    const { statuses, socket } = watch();
    for (const s of ['running', 'paused', 'running', 'completed']) socket.serve({ kind: 'run', run: run(s) });
    expect(statuses).toEqual(['running', 'paused', 'running', 'completed']);
  });
});
