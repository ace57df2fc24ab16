// The command palette (Ctrl/Cmd+K): a search field over every command of the
// editor, as a combobox with a list box of results. ArrowUp/Down move, Enter
// runs, Escape closes (and focus goes back where it was).
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Modal } from '../../components/Modal';
import { filterCommands, type Command } from './commands';
import './commandPalette.css';

/** The first result that can be run, from `from` on in direction `step` (wrapping); -1 if none. */
function nextEnabled(list: readonly Command[], from: number, step: 1 | -1): number {
  const n = list.length;
  for (let i = 0; i < n; i++) {
    const at = (((from + step * i) % n) + n) % n;
    if (!list[at].disabled) return at;
  }
  return -1;
}

export function CommandPalette({ commands, onClose }: { commands: readonly Command[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(() => Math.max(0, nextEnabled(commands, 0, 1)));
  const results = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = results.length ? Math.min(active, results.length - 1) : -1;
  const listRef = useRef<HTMLUListElement>(null);
  const base = useId();
  const listId = `${base}-list`;
  const optionId = (i: number) => `${base}-opt-${i}`;

  useEffect(() => {
    if (current < 0) return;
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  const runAt = (i: number) => {
    const cmd = results[i];
    if (!cmd || cmd.disabled) return;
    onClose();
    cmd.run();
  };

  return (
    <Modal onClose={onClose} label="Command palette">
      <div className="modal command-palette" data-testid="command-palette">
        <input
          className="command-input"
          data-testid="command-input"
          data-autofocus
          type="text"
          role="combobox"
          aria-label="Type a command, a step or an agent"
          aria-expanded="true"
          aria-autocomplete="list"
          aria-controls={listId}
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          placeholder="Type a command, a step id or an agent…"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            const q = e.target.value;
            setQuery(q);
            setActive(Math.max(0, nextEnabled(filterCommands(commands, q), 0, 1)));
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (!results.length) return;
              const step = e.key === 'ArrowDown' ? 1 : -1;
              const next = nextEnabled(results, current + step, step);
              if (next >= 0) setActive(next);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (current >= 0) runAt(current);
            }
          }}
        />
        <ul className="command-list" role="listbox" id={listId} aria-label="Commands" ref={listRef}>
          {results.map((cmd, i) => (
            <li
              key={cmd.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              aria-disabled={cmd.disabled ? true : undefined}
              className={`command-option${i === current ? ' active' : ''}${cmd.disabled ? ' disabled' : ''}`}
              data-testid="command-option"
              data-command-id={cmd.id}
              data-index={i}
              title={cmd.disabled ?? undefined}
              onMouseDown={(e) => e.preventDefault() /* the field keeps the focus */}
              onMouseMove={() => !cmd.disabled && i !== current && setActive(i)}
              onClick={() => runAt(i)}
            >
              <span className="command-title">{cmd.title}</span>
              {cmd.disabled ? <span className="command-reason">{cmd.disabled}</span> : null}
              {cmd.shortcut ? <kbd className="command-keys">{cmd.shortcut}</kbd> : null}
            </li>
          ))}
          {results.length === 0 && (
            <li className="command-empty muted" role="presentation">
              No command matches “{query}”.
            </li>
          )}
        </ul>
      </div>
    </Modal>
  );
}
