// A big run's messages as its view holds them (runtime/live/view/mail.py): how many were sent, forwarded, read
// and dropped (by reason, in words), the last few with where each got to, the coordinator's last narrations and
// its synthesis. Never an element per message: the Events panel pages through all of them.
import { memo } from 'react';
import { clockTime } from '../eventRows';
import { dropWords } from '../mail';
import type { ViewMail } from '../view/merge';

function stateWords(state: string, reason: string | null): string {
  if (state === 'dropped') return `dropped: ${dropWords(reason ?? undefined)}`;
  return state === 'drained' ? 'read' : 'not read yet';
}

/** Whether the view says the run had any messaging to show. */
export function hasMail(mail: ViewMail | undefined): mail is ViewMail {
  if (!mail) return false;
  const c = mail.counts;
  return c.sent + c.forwarded + c.dropped > 0 || mail.narration.length > 0 || mail.synthesis !== null || mail.warning !== null;
}

export const BigMessages = memo(function BigMessages({ mail }: { mail: ViewMail }) {
  const c = mail.counts;
  const drops = Object.entries(mail.dropped);
  return (
    <section className="big-loop big-mail" data-testid="big-messages" aria-label="Messages and the coordinator">
      <h3 className="big-loop-title">Messages and the coordinator</h3>
      <ul className="big-legend" data-testid="big-message-counts">
        <li>{c.sent.toLocaleString()} sent to the coordinator</li>
        <li>{c.forwarded.toLocaleString()} forwarded by it</li>
        <li>{c.drained.toLocaleString()} read</li>
        <li>{c.dropped.toLocaleString()} dropped</li>
      </ul>
      {drops.length > 0 && (
        <p className="small" data-testid="big-message-drops">
          Dropped:{' '}
          {drops.map(([reason, n], i) => (
            <span key={reason}>
              {i > 0 ? '; ' : ''}
              {n.toLocaleString()} because {dropWords(reason)} <span className="mono muted">({reason})</span>
            </span>
          ))}
        </p>
      )}
      {mail.warning && <p className="small coord-dropped">{mail.warning}</p>}
      {mail.recent.length > 0 && (
        <>
          <h4 className="big-heading">Last {mail.recent.length === 1 ? 'message' : `${mail.recent.length} messages`}</h4>
          <ol className="message-list" data-testid="big-message-list">
            {mail.recent.map((m) => (
              <li key={m.id} className={`message-row message-${m.state}`} data-testid="big-message" data-state={m.state}>
                <div className="message-head small">
                  <span className="mono">{m.sender}</span> → <span className="mono">{m.to}</span> <span className="pill small">{m.kind}</span>
                  <time className="muted mono message-time">{clockTime(m.at ?? undefined)}</time>
                </div>
                <p className="message-text">{m.text}</p>
                <div className={`small ${m.state === 'dropped' ? 'message-dropped-why' : 'muted'}`}>{stateWords(m.state, m.reason)}</div>
              </li>
            ))}
          </ol>
        </>
      )}
      {mail.narration.length > 0 && (
        <>
          <h4 className="big-heading">The coordinator said</h4>
          <ol className="coord-feed" data-testid="big-narration">
            {mail.narration.map((n, i) => (
              <li key={i} className="coord-item coord-narration">
                <time className="muted small mono">{clockTime(n.at ?? undefined)}</time>
                <p className="coord-text">{n.text}</p>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
});
