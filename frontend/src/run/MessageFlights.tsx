// Messages drawn travelling over the run page's canvas while the run is live: from the sending step to the
// coordinator (drawn as a hub in the canvas's corner), from the coordinator to the step it forwards to. Each
// flight is one small element, animated by the browser (Web Animations) and removed when it lands, so a run
// with many messages keeps no element per message; at most MAX_IN_AIR fly at once. Hovering a flight holds it
// and shows its text; a dropped one stops short and says why in words.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { RunEvent } from '../api/events.gen';
import { useEditor, useEditorStore } from '../store/context';
import { flightsFrom, flightTitle, MAX_IN_AIR, nodeKeysFor, type Flight } from './flights';
import { COORDINATOR } from './mail';
import { isTerminal } from './socket';

const FLY_MS = 1600;
const DROP_MS = 2800;

interface Point {
  x: number;
  y: number;
}

/** Where a step (or the coordinator's hub) is drawn now, in the overlay's coordinates; null when not drawn. */
function pointOf(overlay: HTMLElement, step: string): Point | null {
  const box = overlay.getBoundingClientRect();
  let el: Element | null = null;
  if (step === COORDINATOR) el = overlay.querySelector('[data-testid=coordinator-hub]');
  else {
    const canvas = overlay.parentElement;
    for (const key of nodeKeysFor(step)) {
      el = canvas?.querySelector(`[data-testid="node-${key.replace(/["\\]/g, '\\$&')}"]`) ?? null;
      if (el) break;
    }
  }
  if (!el) return null;
  const r = el.getBoundingClientRect();
  // A node panned out of view: the flight goes to the nearest edge instead.
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 8), Math.max(8, max - 8));
  return { x: clamp(r.left + r.width / 2 - box.left, box.width), y: clamp(r.top + r.height / 2 - box.top, box.height) };
}

function FlightDot({ flight, overlay, onLanded }: { flight: Flight; overlay: RefObject<HTMLDivElement | null>; onLanded: (key: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const anim = useRef<Animation | null>(null);
  useEffect(() => {
    const el = ref.current;
    const box = overlay.current;
    if (!el || !box || typeof el.animate !== 'function') {
      onLanded(flight.key);
      return;
    }
    const from = pointOf(box, flight.from);
    const to = pointOf(box, flight.to);
    const start = from ?? to ?? { x: box.clientWidth / 2, y: box.clientHeight / 2 };
    const end = to ?? { x: start.x, y: start.y + 40 };
    const at = (p: Point) => `translate(${p.x}px, ${p.y}px)`;
    const short = { x: start.x + (end.x - start.x) * 0.7, y: start.y + (end.y - start.y) * 0.7 };
    const frames = flight.dropped
      ? [{ transform: at(start) }, { transform: at(short), offset: 0.45 }, { transform: at(short), opacity: 1, offset: 0.85 }, { transform: at(short), opacity: 0 }]
      : [{ transform: at(start) }, { transform: at(end) }];
    const a = el.animate(frames, { duration: flight.dropped ? DROP_MS : FLY_MS, easing: 'ease-in-out', fill: 'forwards' });
    anim.current = a;
    a.onfinish = () => onLanded(flight.key);
    return () => a.cancel();
  }, [flight, overlay, onLanded]);
  return (
    <div
      ref={ref}
      className={`flight${flight.dropped ? ' flight-dropped' : ''}`}
      title={flightTitle(flight)}
      role="img"
      aria-label={flightTitle(flight)}
      data-testid="message-flight"
      data-from={flight.from}
      data-to={flight.to}
      data-state={flight.dropped ? 'dropped' : 'delivered'}
      onMouseEnter={() => anim.current?.pause()}
      onMouseLeave={() => anim.current?.play()}
    >
      <span className="flight-dot" aria-hidden>
        ✉
      </span>
      {flight.dropped && <span className="flight-drop">✕ dropped: {flight.dropped}</span>}
    </div>
  );
}

/** The coordinator's hub and the messages in the air, over the canvas (inside .canvas-wrap). */
export function MessageFlights() {
  const store = useEditorStore();
  const overlay = useRef<HTMLDivElement>(null);
  // Events stored before the page opened are replayed, not flown.
  const [liveFrom] = useState(() => {
    const s = store.getState();
    return isTerminal(s.run?.status) ? Number.POSITIVE_INFINITY : Math.max(s.run?.last_seq ?? 0, s.runState.lastSeq);
  });
  const shown = useEditor((s) => (s.run?.coordinator ?? 'off') !== 'off' || s.runState.mail.messages.length > 0);
  const count = useEditor((s) => s.runState.mail.messages.length);
  const [flights, setFlights] = useState<Flight[]>([]);

  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.runState.lastSeq === prev.runState.lastSeq || s.runState.lastSeq <= liveFrom) return;
        const log = s.runState.log;
        const fresh: RunEvent[] = [];
        for (let i = log.length - 1; i >= 0 && log[i].seq > prev.runState.lastSeq; i--) fresh.push(log[i]);
        const started = flightsFrom(fresh.reverse(), liveFrom);
        if (started.length) setFlights((air) => [...air, ...started].slice(-MAX_IN_AIR));
      }),
    [store, liveFrom],
  );
  const landed = useCallback((key: string) => setFlights((air) => air.filter((f) => f.key !== key)), []);

  if (!shown) return null;
  return (
    <div className="flights" ref={overlay} data-testid="message-flights">
      <div className="coord-hub" data-testid="coordinator-hub" title="The run's coordinator: every message between steps goes through it">
        <span aria-hidden>◆</span> coordinator{count > 0 ? ` · ${count} message${count === 1 ? '' : 's'}` : ''}
      </div>
      {flights.map((f) => (
        <FlightDot key={f.key} flight={f} overlay={overlay} onLanded={landed} />
      ))}
    </div>
  );
}
