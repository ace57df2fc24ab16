// The Messages tab: every message of the run (from, to, kind, where it got to and why, when), searchable, and
// the run's shared memory as a table by namespace with the step that wrote each key. Messages come from the
// run's events; shared memory from the API (GET /runs/{id}/shared-memory), asked again as writes happen.
import { useDeferredValue, useMemo, useState } from 'react';
import { useEditor } from '../store/context';
import { clockTime } from './eventRows';
import { plural } from './labels';
import { searchMessages, stateWords, type MailMessage } from './mail';
import { SharedMemoryTable } from './SharedMemoryTable';

function MessageRow({ m }: { m: MailMessage }) {
  return (
    <li className={`message-row message-${m.state}`} data-testid="message-row" data-id={m.id} data-state={m.state} data-to={m.to}>
      <div className="message-head small">
        <span className="mono">{m.sender}</span>
        <span aria-label="to"> → </span>
        <span className="mono">{m.to}</span>
        <span className="pill small">{m.kind}</span>
        <time className="muted mono message-time">{clockTime(m.at)}</time>
      </div>
      <p className="message-text">{m.text}</p>
      <div className={`small ${m.state === 'dropped' ? 'message-dropped-why' : 'muted'}`}>
        {m.state === 'dropped' ? '✕ ' : m.state === 'drained' ? '✓ ' : '… '}
        {stateWords(m)}
        {m.state === 'drained' && m.drainedAt ? ` at ${clockTime(m.drainedAt)}` : ''}
        {m.state === 'dropped' && m.reason ? <span className="mono muted"> ({m.reason})</span> : null}
        <span className="muted mono"> · {m.id}</span>
      </div>
    </li>
  );
}

export function MessagesPanel({ runId }: { runId: string }) {
  const messages = useEditor((s) => s.runState.mail.messages);
  const sharedMemory = useEditor((s) => s.run?.shared_memory ?? false);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const shown = useMemo(() => searchMessages(messages, deferred), [messages, deferred]);
  const dropped = messages.filter((m) => m.state === 'dropped').length;
  return (
    <div data-testid="messages-panel">
      <label className="visually-hidden" htmlFor="messages-search">
        Search messages
      </label>
      <input
        id="messages-search"
        className="input"
        type="search"
        placeholder="Search messages: step, text, kind, dropped…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="messages-search"
      />
      <p className="muted small" data-testid="messages-count">
        {plural(messages.length, 'message')}
        {dropped ? ` · ${dropped} dropped` : ''}
        {deferred.trim() ? ` · ${shown.length} match` : ''}
      </p>
      {messages.length === 0 ? (
        <p className="muted small">Messages between the steps and the coordinator appear here: what a step sends with send_message, what the coordinator forwards.</p>
      ) : shown.length === 0 ? (
        <p className="muted small">No message matches “{deferred}”.</p>
      ) : (
        <ol className="message-list" data-testid="message-list">
          {shown.map((m) => (
            <MessageRow key={m.id || m.seq} m={m} />
          ))}
        </ol>
      )}
      <h4 className="side-title">Shared memory</h4>
      <SharedMemoryTable runId={runId} on={sharedMemory} />
    </div>
  );
}
