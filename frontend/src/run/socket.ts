// The run's websocket (docs/api.md): every event after `seq`, then live ones.
// Reconnects with the last seq seen, so a reconnect replays what was missed;
// the reducer drops duplicates by seq. Falls back to polling when websockets fail.
import { api } from '../api/client';
import { FINAL_RUN_STATUSES, type RunEvent } from '../api/events.gen';
import type { Run, SocketMessage } from '../api/types';

export interface RunStreamHandlers {
  onEvents(events: RunEvent[]): void;
  onRun(run: Run): void;
  onState(state: 'connecting' | 'live' | 'reconnecting' | 'polling' | 'closed'): void;
  lastSeq(): number;
}

const TERMINAL = new Set<string>(FINAL_RUN_STATUSES);

export class RunStream {
  private ws: WebSocket | null = null;
  private closed = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private buffer: RunEvent[] = [];
  private flushScheduled = false;
  private finished = false;

  constructor(private runId: string, private h: RunStreamHandlers) {}

  start(): void {
    this.connect();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
    this.h.onState('closed');
  }

  private flush = () => {
    this.flushScheduled = false;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length) this.h.onEvents(batch);
  };

  private push(ev: RunEvent) {
    this.buffer.push(ev);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // One store update per frame, however fast events come.
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(this.flush);
      else setTimeout(this.flush, 50);
    }
  }

  private connect() {
    if (this.closed) return;
    this.h.onState(this.failures ? 'reconnecting' : 'connecting');
    const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${proto}://${window.location.host}/ws/runs/${encodeURIComponent(this.runId)}/?after=${this.h.lastSeq()}&batch=1`;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.failures = 0;
      this.h.onState('live');
    };
    ws.onmessage = (msg) => {
      let data: SocketMessage;
      try {
        data = JSON.parse(String(msg.data)) as SocketMessage;
      } catch {
        return;
      }
      if (data.kind === 'event') this.push(data.event);
      else if (data.kind === 'events' && Array.isArray(data.events)) data.events.forEach((e) => this.push(e));
      else if (data.kind === 'run') {
        // A run never leaves a final status: a later "running" is an older message overtaken.
        if (this.finished && !TERMINAL.has(data.run.status)) return;
        this.flush();
        this.h.onRun(data.run);
        if (TERMINAL.has(data.run.status)) this.finished = true;
      }
    };
    ws.onclose = () => {
      this.ws = null;
      this.flush();
      if (this.closed) return;
      if (this.finished) {
        // Catch anything after the last message, then stop.
        void this.poll(true);
        return;
      }
      this.retry();
    };
  }

  private retry() {
    this.failures++;
    if (this.failures > 4) {
      this.h.onState('polling');
      void this.poll(false);
      return;
    }
    const wait = Math.min(4000, 250 * 2 ** this.failures);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** HTTP fallback: fetch events after the last seq until the run ends. */
  private async poll(once: boolean) {
    while (!this.closed) {
      try {
        const events = await api.runEvents(this.runId, this.h.lastSeq());
        events.forEach((e) => this.push(e));
        this.flush();
        const run = await api.getRun(this.runId);
        this.h.onRun(run);
        if (once || TERMINAL.has(run.status)) {
          if (!once) {
            const rest = await api.runEvents(this.runId, this.h.lastSeq());
            rest.forEach((e) => this.push(e));
            this.flush();
          }
          this.h.onState('closed');
          return;
        }
      } catch {
        // keep trying
      }
      await new Promise((r) => setTimeout(r, 1000));
      // Try the websocket again now and then.
      if (!once && this.failures > 0 && Math.random() < 0.2) {
        this.failures = 1;
        this.connect();
        return;
      }
    }
  }
}

export function isTerminal(status: string | undefined): boolean {
  return !!status && TERMINAL.has(status);
}
