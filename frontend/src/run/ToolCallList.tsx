// Agents' tool calls, by the turn that made them: one folded line per call, its arguments and
// result on unfolding. A search box keeps the calls that match and unfolds them.
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { plural } from './labels';
import { formatMs } from './reduce';
import { isTerminal } from './socket';
import { approvalWords, argEntries, argsLine, capText, filterTurns, type ToolCall, type ToolTurn } from './toolCalls';
import { useShownStatus } from './useShownStatus';

/** Turns drawn at first: a long run's older ones wait behind a button. */
const SHOWN_TURNS = 100;
/** Characters of a result drawn at first (the tool already capped what the model saw). */
const SHOWN_OUTPUT = 20_000;

/** The turns' tool calls with a search box; `title` heads the list. */
export function ToolCallList({ turns, title = 'Tool calls' }: { turns: readonly ToolTurn[]; title?: string }) {
  const [query, setQuery] = useState('');
  // Typing stays quick in a long run: the filter follows a moment later.
  const deferred = useDeferredValue(query);
  const found = useMemo(() => filterTurns(turns, deferred), [turns, deferred]);
  const [all, setAll] = useState(false);
  const searchId = useId();
  // A call still running when the run is over will never end: say so rather than spin.
  const runOver = isTerminal(useShownStatus().status);
  const total = turns.reduce((n, t) => n + t.calls.length, 0);
  if (!total) return null;
  const shown = all ? found.turns : found.turns.slice(-SHOWN_TURNS);
  const searching = deferred.trim() !== '';
  return (
    <section className="tool-calls" data-testid="tool-calls" aria-label={title}>
      <h4 className="side-title">
        {title} <span className="muted small">· {plural(total, 'call')}</span>
      </h4>
      <label className="sr-only" htmlFor={searchId}>
        Search tool calls
      </label>
      <input
        id={searchId}
        className="input tool-search"
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder="Search by tool, argument or output"
        data-testid="tool-search"
      />
      {searching && (
        <p className="muted small" role="status" data-testid="tool-search-count">
          {found.matches ? `${plural(found.matches, 'call')} match` : 'No call matches.'}
        </p>
      )}
      {shown.length < found.turns.length && (
        <button className="btn small ghost" onClick={() => setAll(true)}>
          Show the {plural(found.turns.length - shown.length, 'earlier turn')}
        </button>
      )}
      <ol className="tool-turns">
        {shown.map((t) => (
          <ToolTurnItem key={t.key} turn={t} unfold={searching} query={deferred} runOver={runOver} />
        ))}
      </ol>
    </section>
  );
}

function ToolTurnItem({ turn, unfold, query, runOver }: { turn: ToolTurn; unfold: boolean; query: string; runOver: boolean }) {
  return (
    <li className="tool-turn" data-testid="tool-turn" data-agent-id={turn.agentId} data-turn={turn.turn ?? ''}>
      <div className="tool-turn-head muted small">
        <span className="mono">{turn.agentId}</span>
        {turn.turn !== null && ` · turn ${turn.turn}`}
      </div>
      <ul className="tool-call-list">
        {turn.calls.map((c) => (
          <ToolCallItem key={c.id} call={c} unfold={unfold} query={query} runOver={runOver} />
        ))}
      </ul>
    </li>
  );
}

/** A call's state as a short word for its folded line. */
function stateLabel(call: ToolCall, runOver: boolean): { text: string; tone: string } {
  if (call.state === 'failed') return { text: 'failed', tone: 'failed' };
  // The tool's own time; a wait for a person's decision is said apart.
  if (call.state === 'done') return { text: `${formatMs(call.durationMs) || 'done'}${call.waitedMs ? ` (+ ${formatMs(call.waitedMs)} waiting for approval)` : ''}`, tone: 'done' };
  if (runOver) return { text: 'no result (the run ended)', tone: 'ended' };
  if (call.approval?.phase === 'asked') return { text: 'waiting for approval', tone: 'waiting' };
  return call.state === 'running' ? { text: 'running…', tone: 'running' } : { text: 'not started', tone: 'asked' };
}

function ToolCallItem({ call, unfold, query, runOver }: { call: ToolCall; unfold: boolean; query: string; runOver: boolean }) {
  const [open, setOpen] = useState(unfold);
  // A new search unfolds its matches; clearing it folds them again. The user's own toggles hold until then.
  const [seenQuery, setSeenQuery] = useState(query);
  if (query !== seenQuery) {
    setSeenQuery(query);
    setOpen(unfold);
  }
  const bodyId = useId();
  const state = stateLabel(call, runOver);
  return (
    <li className={`tool-call tool-call-${state.tone}`} data-testid="tool-call" data-tool={call.name} data-call-id={call.id} data-state={call.state}>
      <button className="tool-call-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)} data-testid="tool-call-toggle">
        <span className="tool-call-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <strong className="mono">{call.name}</strong>
        <span className="tool-call-args mono" title={argsLine(call.input)}>
          {argsLine(call.input)}
        </span>
        <span className={`tool-call-state small${state.tone === 'running' ? ' tool-running' : ''}`}>{state.text}</span>
      </button>
      {call.approval && call.approval.phase !== 'asked' && (
        <div className={`tool-approval small tool-approval-${call.approval.phase}`} data-testid="tool-call-approval">
          {approvalWords(call.approval)}
        </div>
      )}
      {call.error && (
        <div className="tool-call-error small" data-testid="tool-call-error">
          {call.error}
        </div>
      )}
      {open && (
        <div id={bodyId} className="tool-call-body">
          <ToolArguments input={call.input} />
          <ToolResult call={call} />
        </div>
      )}
    </li>
  );
}

/** A call's arguments in full, as text. */
export function ToolArguments({ input }: { input: unknown }) {
  const entries = argEntries(input);
  if (!entries.length) return <p className="muted small">No arguments.</p>;
  return (
    <dl className="tool-args" data-testid="tool-call-arguments">
      {entries.map((a) => (
        <div key={a.name} className="tool-arg">
          {a.name && <dt className="mono small muted">{a.name}</dt>}
          <dd>
            <pre className="output">{a.text}</pre>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ToolResult({ call }: { call: ToolCall }) {
  const [whole, setWhole] = useState(false);
  if (call.output === undefined) return call.state === 'running' ? <p className="muted small">No result yet.</p> : null;
  const { text, hidden } = whole ? { text: call.output, hidden: 0 } : capText(call.output, SHOWN_OUTPUT);
  return (
    <div className="tool-result">
      <div className="muted small">Result</div>
      <pre className="output tool-output" data-testid="tool-call-output">
        {text}
      </pre>
      {hidden > 0 && (
        <button className="btn small ghost" onClick={() => setWhole(true)}>
          Show the other {hidden.toLocaleString()} characters
        </button>
      )}
      {call.truncated && (
        <p className="muted small" data-testid="tool-call-truncated">
          Truncated: the tool cut this output at its limit; the model saw only this much.
        </p>
      )}
    </div>
  );
}
