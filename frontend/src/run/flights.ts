// Which messages fly across the run page's canvas, and between which nodes. A message flies while the run is
// live: sent by a step (message_sent) it flies from that step to the coordinator; forwarded by the coordinator
// (coordinator_message) from the coordinator to the step; dropped (message_dropped) towards where it was meant
// to go, and stops short, marked with the reason in words. Events replayed on opening the page do not fly:
// only those stored after the page opened (seq above the run's last_seq then).
import type { RunEvent } from '../api/events.gen';
import { COORDINATOR, dropWords } from './mail';

export interface Flight {
  /** Unique on the page: the event's seq. */
  key: string;
  id: string;
  from: string;
  to: string;
  kind: string;
  text: string;
  /** Why it was dropped, in words (absent: it is delivered). */
  dropped?: string;
}

/** At most this many in the air at once: a burst of messages does not become a burst of elements. */
export const MAX_IN_AIR = 24;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The flights `events` start (only events with a seq above `after`). */
export function flightsFrom(events: readonly RunEvent[], after: number): Flight[] {
  const out: Flight[] = [];
  for (const ev of events) {
    if (ev.seq <= after) continue;
    if (ev.type === 'message_sent' || ev.type === 'coordinator_message') {
      const d = ev.data;
      const from = str(d?.sender) || (ev.type === 'message_sent' ? ev.stepId ?? '' : COORDINATOR);
      const to = str(d?.to) || (ev.type === 'message_sent' ? COORDINATOR : ev.stepId ?? '');
      out.push({ key: String(ev.seq), id: str(d?.id), from, to, kind: str(d?.kind) || 'info', text: str(d?.text) });
    } else if (ev.type === 'message_dropped') {
      const d = ev.data;
      out.push({ key: String(ev.seq), id: str(d?.id), from: str(d?.sender), to: str(d?.to), kind: str(d?.kind) || 'info', text: str(d?.text), dropped: dropWords(str(d?.reason)) });
    }
  }
  return out;
}

const IN_LOOP = /^([^.[\]]+)(?:\.(\d+)|\[(\d+)\])(?:\.(.+))?$/;

/**
 * The canvas nodes a namespaced step id may be drawn as, most specific first: `loop-stages.1.worker` is the loop's
 * inner step `loop-stages/worker`, else the loop itself; `deploy-staging.run-tests` is the include node.
 */
export function nodeKeysFor(stepPath: string): string[] {
  if (!stepPath || stepPath === COORDINATOR) return [];
  const m = IN_LOOP.exec(stepPath);
  if (m) {
    const loop = m[1];
    const inner = m[4] ? m[4].split(/[.[]/)[0] : '';
    return inner ? [`${loop}/${inner}`, loop] : [loop];
  }
  const dot = stepPath.indexOf('.');
  return dot > 0 ? [stepPath.slice(0, dot)] : [stepPath];
}

/** What a flight says on hover. */
export function flightTitle(f: Flight): string {
  const kind = f.kind && f.kind !== 'info' ? ` (${f.kind})` : '';
  const head = `${f.from} → ${f.to}${kind}`;
  return `${head}${f.dropped ? ` — dropped: ${f.dropped}` : ''}\n${f.text}`;
}
