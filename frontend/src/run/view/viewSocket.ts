// The run view's websocket (`ws/runs/<id>/view/`): the run record, the whole
// view, then patches (at most ten a second). A reconnect gets a fresh whole
// view, so nothing needs replaying. Same cookie auth as the events socket.
import type { Run } from '../../api/types';
import { isTerminal } from '../socket';
import type { View, ViewMessage, ViewPatch } from './merge';

export type ViewConn = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface ViewStreamHandlers {
  onRun(run: Run): void;
  onView(view: View): void;
  onPatch(patch: ViewPatch): void;
  onState(state: ViewConn): void;
  /** No view could be had (refused, or the socket kept failing before one came): nothing more will come. */
  onUnavailable(): void;
}

/** Close codes the server answers with (not signed in, no such run): trying again cannot help. */
const REFUSED = new Set([4401, 4403, 4404]);
/** Failed tries before the first view after which the page stops waiting for one. */
const TRIES_BEFORE_VIEW = 3;
/** The server's route takes run ids of this shape only; another would never connect. */
const RUN_ID = /^[0-9a-fA-F-]{1,64}$/;

export function viewSocketUrl(runId: string): string {
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${window.location.host}/ws/runs/${encodeURIComponent(runId)}/view/`;
}

/** The run record to keep: a final one is never replaced by an older, active one that overtook it. */
export function keepFinal(current: Run | null, next: Run): Run {
  return current && isTerminal(current.status) && !isTerminal(next.status) ? current : next;
}

export class RunViewStream {
  private ws: WebSocket | null = null;
  private stopped = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private hadView = false;
  private finished = false;

  constructor(private runId: string, private h: ViewStreamHandlers) {}

  start(): void {
    if (!RUN_ID.test(this.runId)) {
      this.giveUp();
      return;
    }
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  private giveUp() {
    this.stop();
    this.h.onState('closed');
    this.h.onUnavailable();
  }

  private connect() {
    if (this.stopped) return;
    this.h.onState(this.failures ? 'reconnecting' : 'connecting');
    let ws: WebSocket;
    try {
      ws = new WebSocket(viewSocketUrl(this.runId));
    } catch {
      this.closed(null);
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.h.onState('live');
    ws.onmessage = (msg) => {
      let data: ViewMessage;
      try {
        data = JSON.parse(String(msg.data)) as ViewMessage;
      } catch {
        return;
      }
      if (data.kind === 'run') {
        if (this.finished && !isTerminal(data.run.status)) return;
        if (isTerminal(data.run.status)) this.finished = true;
        this.h.onRun(data.run);
      } else if (data.kind === 'view') {
        this.hadView = true;
        // A whole view after connecting: the tries start over.
        this.failures = 0;
        this.h.onView(data.view);
      } else if (data.kind === 'patch' && this.hadView) {
        this.h.onPatch(data);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.closed(ev.code);
    };
  }

  private closed(code: number | null) {
    if (this.stopped) return;
    // The server sends the final record after the last patch: a finished run's view is whole.
    if (this.finished && this.hadView) {
      this.stopped = true;
      this.h.onState('closed');
      return;
    }
    this.failures++;
    if (!this.hadView && ((code !== null && REFUSED.has(code)) || this.failures >= TRIES_BEFORE_VIEW)) {
      this.giveUp();
      return;
    }
    this.h.onState('reconnecting');
    const wait = Math.min(4000, 250 * 2 ** this.failures);
    this.timer = setTimeout(() => this.connect(), wait);
  }
}
