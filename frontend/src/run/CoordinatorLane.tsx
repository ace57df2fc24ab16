// The coordinator's lane beside the run's canvas: what it narrates as the run goes, what it forwarded to which
// step (and whether that step read it), and its synthesis at the end. Shown for runs that have a coordinator;
// it folds to a rail like the side panel. Every text is a model's: rendered as text.
import { useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { PanelEdge, PanelRail } from '../components/PanelEdge';
import { useSidePanel } from '../components/sidePanel';
import { useEditor } from '../store/context';
import { clockTime } from './eventRows';
import { laneItems, stateWords, type LaneItem } from './mail';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';

const MODE_WORDS: Record<string, string> = {
  narrate: 'narrates, forwards, sums up',
  'summary-only': 'forwards and sums up, no narration',
};

/** Whether the run page shows the lane: the run has a coordinator, or its events say it had one. */
export function useHasCoordinator(): boolean {
  return useEditor((s) => (s.run?.coordinator ?? 'off') !== 'off' || s.runState.mail.narration.length > 0 || s.runState.mail.synthesis !== null);
}

function Item({ item }: { item: LaneItem }) {
  if (item.kind === 'narration') {
    const n = item.narration;
    return (
      <li className="coord-item coord-narration" data-testid="coordinator-narration">
        <time className="muted small mono">{clockTime(n.at)}</time>
        <p className="coord-text">{n.text}</p>
        {n.rejectedTarget && <p className="muted small">Meant for {n.rejectedTarget}, a loop or include: narrated instead.</p>}
      </li>
    );
  }
  const m = item.message;
  return (
    <li className={`coord-item coord-forward coord-${m.state}`} data-testid="coordinator-forward" data-to={m.to} data-state={m.state}>
      <time className="muted small mono">{clockTime(m.at)}</time>
      <p className="coord-route small">
        <span aria-hidden>→ </span>forwarded to <span className="mono">{m.to}</span>
        {m.kind !== 'info' && <span className="pill small">{m.kind}</span>}
      </p>
      <p className="coord-text">{m.text}</p>
      <p className={`small ${m.state === 'dropped' ? 'coord-dropped' : 'muted'}`}>{stateWords(m)}</p>
    </li>
  );
}

export function CoordinatorLane() {
  const run = useEditor((s) => s.run);
  const mail = useEditor((s) => s.runState.mail);
  const { status } = useShownStatus();
  const items = useMemo(() => laneItems(mail), [mail]);
  const panel = useSidePanel('ld:panel:coordinator-lane', 280);
  const body = useRef<HTMLDivElement>(null);
  const last = items.length ? items[items.length - 1].seq : 0;
  // Follow what is new, unless the reader scrolled up to read something older.
  useEffect(() => {
    const el = body.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [last, mail.synthesis]);
  if (panel.collapsed) return <PanelRail panel={panel} name="coordinator lane" testId="coordinator-lane-rail" />;
  const mode = run?.coordinator ?? 'narrate';
  const finished = isTerminal(status);
  return (
    <aside className="coord-lane" style={{ '--panel-w': `${panel.width}px` } as CSSProperties} data-testid="coordinator-lane" aria-label="Coordinator">
      <PanelEdge panel={panel} name="coordinator lane" />
      <div className="coord-lane-head">
        <h3 className="coord-lane-title">Coordinator</h3>
        <span className="muted small">{MODE_WORDS[mode] ?? mode}</span>
      </div>
      <div className="coord-lane-body" ref={body}>
        {items.length === 0 && !mail.synthesis && (
          <p className="muted small">{finished ? 'The coordinator said nothing in this run.' : 'What the coordinator says and forwards appears here as it happens.'}</p>
        )}
        {items.length > 0 && (
          <ol className="coord-feed" data-testid="coordinator-feed">
            {items.map((item) => (
              <Item key={`${item.kind}-${item.seq}`} item={item} />
            ))}
          </ol>
        )}
        {mail.warning && (
          <div className="banner banner-warning small" role="status">
            {mail.warning}
          </div>
        )}
        {mail.synthesis && (
          <section className="coord-synthesis" data-testid="coordinator-synthesis">
            <h4 className="side-title">Synthesis</h4>
            <p className="coord-text">{mail.synthesis.summary || 'The coordinator finalized without a summary.'}</p>
          </section>
        )}
      </div>
    </aside>
  );
}
