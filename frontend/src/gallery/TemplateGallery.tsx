// "Start from a template": the server's loop templates as cards. "Open" saves
// the template as a new workflow and opens the editor; "Open and run" also
// starts a simulated run with the template's script and opens the run view,
// but when the workspace already has a workflow of the template's name it asks
// first: run that copy, or make another ("<name> (2)").
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorText } from '../api/client';
import { when } from '../format/dates';
import { navigate } from '../router';
import { listTemplates, openAndRunTemplate, openTemplate, runAnother, runCopy, type TemplateCopies, type TemplateSummary } from './api';
import './gallery.css';

type Action = 'open' | 'run' | 'copy' | 'another';
type Busy = { slug: string; action: Action } | null;

/** How long "saved as a new workflow" stays in view before the run page opens. */
const NOTICE_MS = 1200;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface CopyChoiceProps {
  found: TemplateCopies;
  busy: Action | null;
  disabled: boolean;
  onCopy: () => void;
  onAnother: () => void;
}

/** "You already have it": the copies "Open and run" found, and the two ways on. */
function CopyChoice({ found, busy, disabled, onCopy, onAnother }: CopyChoiceProps) {
  const updated = when(found.copies[0].updated_at);
  const n = found.copies.length;
  return (
    <div className="tpl-choice" role="group" aria-label={`You already have ${found.name}`} data-testid="template-copy-choice">
      <p>
        {n === 1
          ? `You already have “${found.name}” here (updated ${updated}).`
          : `You already have ${n} workflows called “${found.name}” here; the newest was updated ${updated}.`}
      </p>
      <div className="tpl-actions">
        <button
          className="btn small primary"
          disabled={disabled}
          onClick={onCopy}
          title={`Runs your “${found.name}”${n > 1 ? ' (the newest)' : ''} as it is now, with the template's simulated script`}
          data-testid="template-open-copy"
        >
          {busy === 'copy' ? 'Starting…' : 'Open your copy'}
        </button>
        <button className="btn small" disabled={disabled} onClick={onAnother} title={`Saves the template again as “${found.another}” and runs it`} data-testid="template-make-another">
          {busy === 'another' ? 'Starting…' : 'Make another'}
        </button>
      </div>
    </div>
  );
}

function TemplateCard({
  t,
  busy,
  disabled,
  error,
  notice,
  found,
  onOpen,
  onRun,
  onCopy,
  onAnother,
  blocked,
}: {
  t: TemplateSummary;
  busy: Busy;
  disabled: boolean;
  /** Why this workspace takes no new workflow from the user (their role), or null. */
  blocked: string | null;
  error: string | null;
  /** What was just done (a copy saved), or null. */
  notice: string | null;
  /** The copies "Open and run" found, waiting for the user's choice, or null. */
  found: TemplateCopies | null;
  onOpen: () => void;
  onRun: () => void;
  onCopy: () => void;
  onAnother: () => void;
}) {
  const titleId = useId();
  const mine = busy?.slug === t.slug ? busy.action : null;
  return (
    <article className="tpl-card" aria-labelledby={titleId} data-testid={`template-${t.slug}`}>
      <div className="tpl-top">
        <h3 id={titleId}>{t.title || t.slug}</h3>
        {t.origin && (
          <span className="pill small" title={`The pattern comes from ${t.origin}`}>
            {t.origin}
          </span>
        )}
      </div>
      {t.description && <p className="tpl-desc">{t.description}</p>}
      {t.pattern && <p className="tpl-pattern">{t.pattern}</p>}
      {error && (
        <div className="tpl-error" role="alert">
          {error}
        </div>
      )}
      {notice && (
        <div className="tpl-notice" role="status" data-testid="template-notice">
          {notice}
        </div>
      )}
      {found && <CopyChoice found={found} busy={mine} disabled={disabled || !!blocked} onCopy={onCopy} onAnother={onAnother} />}
      <div className="tpl-actions">
        <button className="btn small" disabled={disabled || !!blocked} title={blocked ?? undefined} onClick={onOpen} aria-label={`Open ${t.title || t.slug}`}>
          {mine === 'open' ? 'Opening…' : 'Open'}
        </button>
        <button
          className="btn small primary"
          disabled={disabled || !!blocked}
          onClick={onRun}
          aria-label={`Open and run ${t.title || t.slug}`}
          title={blocked ?? 'Saves it as a new workflow and starts a simulated run (scripted replies, no cost); asks first when you already have it'}
        >
          {mine === 'run' ? 'Starting…' : 'Open and run'}
        </button>
      </div>
    </article>
  );
}

export function TemplateGallery({
  compact = false,
  workspaceId = null,
  blocked = null,
}: {
  compact?: boolean;
  /** The workspace "Open" saves into (null: the personal one). */
  workspaceId?: number | null;
  /** Why the user cannot add workflows to that workspace (their role), or null. */
  blocked?: string | null;
}) {
  const [items, setItems] = useState<TemplateSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [cardError, setCardError] = useState<{ slug: string; message: string } | null>(null);
  const [notice, setNotice] = useState<{ slug: string; message: string } | null>(null);
  const [choice, setChoice] = useState<{ slug: string; found: TemplateCopies } | null>(null);
  const headingId = useId();
  // A notice's pause must not take the user away from a page they went to meanwhile.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);

  const fetchTemplates = useCallback((signal?: AbortSignal) => {
    listTemplates(signal).then(
      (list) => setItems(Array.isArray(list) ? list : []),
      (e: unknown) => {
        if (e instanceof DOMException && e.name === 'AbortError') return;
        setLoadError(errorText(e));
      },
    );
  }, []);

  useEffect(() => {
    const ctl = new AbortController();
    fetchTemplates(ctl.signal);
    return () => ctl.abort();
  }, [fetchTemplates]);

  const retry = () => {
    setLoadError(null);
    setItems(null);
    fetchTemplates();
  };

  /** Shows what was done a moment, so a new workflow is never made unseen, then opens the run. */
  const saidAndGo = async (slug: string, message: string, runId: string) => {
    setNotice({ slug, message });
    await pause(NOTICE_MS);
    if (shown.current) navigate(`/runs/${runId}`);
  };

  const act = async (slug: string, action: 'open' | 'run') => {
    setBusy({ slug, action });
    setCardError(null);
    setNotice(null);
    setChoice(null);
    try {
      if (action === 'open') {
        const { workflow } = await openTemplate(slug, workspaceId);
        navigate(`/workflows/${workflow.id}`);
        return;
      }
      const outcome = await openAndRunTemplate(slug, workspaceId);
      if (outcome.kind === 'copies') {
        setChoice({ slug, found: outcome });
        setBusy(null);
        return;
      }
      await saidAndGo(slug, `Saved “${outcome.workflow.name}” as a new workflow; opening its run…`, outcome.run.id);
    } catch (e) {
      setCardError({ slug, message: `${action === 'open' ? 'Could not open it' : 'Could not start the run'}: ${errorText(e)}` });
      setBusy(null);
    }
  };

  const choose = async (slug: string, found: TemplateCopies, how: 'copy' | 'another') => {
    setBusy({ slug, action: how });
    setCardError(null);
    try {
      if (how === 'copy') {
        const run = await runCopy(found);
        navigate(`/runs/${run.id}`);
      } else {
        const { workflow, run } = await runAnother(found, workspaceId);
        await saidAndGo(slug, `Saved “${workflow.name}” as a new workflow; opening its run…`, run.id);
      }
    } catch (e) {
      setCardError({ slug, message: `Could not start the run: ${errorText(e)}` });
      setBusy(null);
    }
  };

  return (
    <section className={`gallery${compact ? ' compact' : ''}`} aria-labelledby={headingId} data-testid="template-gallery">
      <div className="gallery-head">
        <h2 id={headingId}>Start from a template</h2>
        <span className="muted small">Ready-made loops. Open one to edit it, or open and run it with a simulated provider.</span>
      </div>
      {blocked && (
        <p className="muted small" data-testid="template-blocked">
          {blocked}
        </p>
      )}
      {loadError && (
        <div className="banner banner-error" role="alert">
          <div className="banner-body">Could not load the templates: {loadError}</div>
          <button className="btn small" onClick={retry}>
            Try again
          </button>
        </div>
      )}
      {items === null && !loadError && (
        <div className="gallery-grid" aria-busy="true" aria-label="Loading templates">
          {[0, 1, 2].map((i) => (
            <div key={i} className="tpl-skeleton" />
          ))}
        </div>
      )}
      {items && items.length === 0 && <p className="muted">No templates are available on this server.</p>}
      {items && items.length > 0 && (
        <div className="gallery-grid">
          {items.map((t) => (
            <TemplateCard
              key={t.slug}
              t={t}
              busy={busy}
              disabled={busy !== null}
              error={cardError?.slug === t.slug ? cardError.message : null}
              notice={notice?.slug === t.slug ? notice.message : null}
              found={choice?.slug === t.slug ? choice.found : null}
              onOpen={() => void act(t.slug, 'open')}
              onRun={() => void act(t.slug, 'run')}
              onCopy={() => choice && void choose(choice.slug, choice.found, 'copy')}
              onAnother={() => choice && void choose(choice.slug, choice.found, 'another')}
              blocked={blocked}
            />
          ))}
        </div>
      )}
    </section>
  );
}
