// The top bar's workspace switcher: a menu button (WAI-ARIA menu pattern) listing the user's
// workspaces, personal first, as radio items; then "New team workspace…" and "Workspace settings".
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, errorText } from '../api/client';
import type { WorkspaceSummary } from '../api/types';
import { Modal } from '../components/Modal';
import { navigate, onLinkClick } from '../router';
import { useCurrentWorkspace, useWorkspaces, workspacesStore } from './current';

function tag(w: WorkspaceSummary): string {
  return w.personal ? 'Personal' : w.role;
}

function items(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>('[role^="menuitem"]')] : [];
}

export function WorkspaceSwitcher({ page }: { page: string }) {
  const list = useWorkspaces((s) => s.list);
  const status = useWorkspaces((s) => s.status);
  const current = useCurrentWorkspace();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  /** Which item takes focus when the menu opens: the current workspace, the first or the last item. */
  const focusOnOpen = useRef<'current' | 'first' | 'last'>('current');
  const menuId = useId();

  useEffect(() => {
    if (workspacesStore.getState().status === 'idle') void workspacesStore.getState().load();
  }, []);

  useEffect(() => {
    if (!open) return;
    const all = items(menu.current);
    const target =
      focusOnOpen.current === 'last'
        ? all[all.length - 1]
        : focusOnOpen.current === 'first'
          ? all[0]
          : (all.find((el) => el.getAttribute('aria-checked') === 'true') ?? all[0]);
    target?.focus();
    const away = (e: MouseEvent) => {
      if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  if (status === 'failed' || (status !== 'ready' && !list)) {
    // No workspaces on this server (or not known yet): nothing to switch.
    return status === 'failed' ? null : <span className="ws-switcher-placeholder muted small" aria-hidden />;
  }

  const openMenu = (focus: 'current' | 'first' | 'last') => {
    focusOnOpen.current = focus;
    setOpen(true);
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const choose = (w: WorkspaceSummary) => {
    close();
    if (w.id === current?.id) return;
    const select = () => workspacesStore.getState().select(w.id);
    if (page === 'editor' || page === 'run') {
      // The workflow or run open belongs to the workspace left: go to the new one's workflows.
      void navigate('/').then((ok) => ok && select());
    } else if (page === 'workspace') {
      select();
      void navigate(`/workspaces/${w.id}`);
    } else select();
  };

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openMenu(e.key === 'ArrowDown' ? 'first' : 'current');
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openMenu('last');
    }
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = items(menu.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => all[(i + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        move(at + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        move(at - 1);
        break;
      case 'Home':
        e.preventDefault();
        move(0);
        break;
      case 'End':
        e.preventDefault();
        move(all.length - 1);
        break;
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        close();
        break;
      case 'Tab':
        close(false);
        break;
      default:
        // Type-ahead: the next item starting with the letter typed.
        if (e.key.length === 1 && /\S/.test(e.key)) {
          const letter = e.key.toLowerCase();
          const order = [...all.slice(at + 1), ...all.slice(0, at + 1)];
          order.find((el) => (el.textContent ?? '').trim().toLowerCase().startsWith(letter))?.focus();
        }
    }
  };

  const settingsPath = current ? `/workspaces/${current.id}` : '/workspaces';
  const label = current ? `Workspace: ${current.name} (${tag(current)})` : 'Workspace';

  return (
    <div className="ws-switcher" ref={wrap}>
      <button
        ref={button}
        type="button"
        className="ws-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={label}
        onClick={() => (open ? close(false) : openMenu('current'))}
        onKeyDown={onButtonKey}
        data-testid="workspace-switcher"
        data-workspace-id={current?.id ?? ''}
      >
        {/* The name read aloud starts with the visible text's words, so voice control finds the button by what it shows. */}
        {current && <span className="visually-hidden">Workspace: </span>}
        <span className="ws-name">{current?.name ?? 'Choose a workspace'}</span>
        {current && <span className="ws-tag">{tag(current)}</span>}
        <span className="ws-caret" aria-hidden>
          ▾
        </span>
      </button>
      {open && (
        <div className="menu ws-menu" role="menu" id={menuId} aria-label="Workspaces" ref={menu} onKeyDown={onMenuKey} data-testid="workspace-menu">
          <div className="ws-menu-title" role="presentation">
            Your workspaces
          </div>
          {(list ?? []).map((w) => (
            <button
              key={w.id}
              type="button"
              role="menuitemradio"
              aria-checked={w.id === current?.id}
              tabIndex={-1}
              className="ws-option"
              onClick={() => choose(w)}
              data-testid={`workspace-option-${w.id}`}
              data-workspace-name={w.name}
            >
              <span className="ws-check" aria-hidden>
                {w.id === current?.id ? '✓' : ''}
              </span>
              <span className="ws-option-name">{w.name}</span>
              <span className={`ws-tag${w.personal ? ' ws-tag-personal' : ''}`}>{tag(w)}</span>
            </button>
          ))}
          <div role="separator" className="ws-sep" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              close(false);
              setCreating(true);
            }}
            data-testid="workspace-new"
          >
            New team workspace…
          </button>
          <a
            role="menuitem"
            tabIndex={-1}
            href={settingsPath}
            onClick={(e) => {
              setOpen(false);
              onLinkClick(e, settingsPath);
            }}
            data-testid="workspace-settings-link"
          >
            Workspace settings
          </a>
        </div>
      )}
      {creating && <NewWorkspaceDialog onClose={() => setCreating(false)} />}
    </div>
  );
}

function NewWorkspaceDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  const create = async () => {
    if (!name.trim()) {
      setError('Give the workspace a name.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const made = await api.createWorkspace(name.trim());
      const summary: WorkspaceSummary = { id: made.id, name: made.name, role: made.role, personal: made.personal };
      workspacesStore.getState().upsert(summary);
      onClose();
      // Its settings next: that is where people are invited.
      if (await navigate(`/workspaces/${made.id}`)) workspacesStore.getState().select(made.id);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Modal onClose={onClose} label="New team workspace">
      <form
        className="modal modal-narrow"
        data-testid="workspace-new-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <header className="modal-head">
          <h3>New team workspace</h3>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <p className="muted">A workspace to share workflows, runs and provider keys with others. You are its owner; invite people from its settings.</p>
        <label className="field">
          <span className="field-label">Name</span>
          <input
            className="input"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            data-autofocus
            aria-invalid={!!error}
            aria-describedby={error ? errorId : undefined}
            data-testid="workspace-new-name"
          />
        </label>
        {error && (
          <div className="banner banner-error" role="alert" id={errorId}>
            {error}
          </div>
        )}
        <footer className="modal-foot">
          <span className="spacer" />
          <button type="button" className="btn ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={busy} data-testid="workspace-new-create">
            {busy ? 'Creating…' : 'Create workspace'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
