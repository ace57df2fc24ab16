// "Start from a template": the server's loop templates as cards. "Open" saves
// the template as a new workflow and opens the editor; "Open and run" also
// starts a simulated run with the template's script and opens the run view.
import { useCallback, useEffect, useId, useState } from 'react';
import { errorText } from '../api/client';
import { navigate } from '../router';
import { listTemplates, openAndRunTemplate, openTemplate, type TemplateSummary } from './api';
import './gallery.css';

type Busy = { slug: string; action: 'open' | 'run' } | null;

function TemplateCard({
  t,
  busy,
  disabled,
  error,
  onOpen,
  onRun,
  blocked,
}: {
  t: TemplateSummary;
  busy: Busy;
  disabled: boolean;
  /** Why this workspace takes no new workflow from the user (their role), or null. */
  blocked: string | null;
  error: string | null;
  onOpen: () => void;
  onRun: () => void;
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
      <div className="tpl-actions">
        <button className="btn small" disabled={disabled || !!blocked} title={blocked ?? undefined} onClick={onOpen} aria-label={`Open ${t.title || t.slug}`}>
          {mine === 'open' ? 'Opening…' : 'Open'}
        </button>
        <button
          className="btn small primary"
          disabled={disabled || !!blocked}
          onClick={onRun}
          aria-label={`Open and run ${t.title || t.slug}`}
          title={blocked ?? 'Saves it as a new workflow and starts a simulated run (scripted replies, no cost)'}
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
  const headingId = useId();

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

  const act = async (slug: string, action: 'open' | 'run') => {
    setBusy({ slug, action });
    setCardError(null);
    try {
      if (action === 'open') {
        const { workflow } = await openTemplate(slug, workspaceId);
        navigate(`/workflows/${workflow.id}`);
      } else {
        const { run } = await openAndRunTemplate(slug, workspaceId);
        navigate(`/runs/${run.id}`);
      }
    } catch (e) {
      setCardError({ slug, message: `${action === 'open' ? 'Could not open it' : 'Could not start the run'}: ${errorText(e)}` });
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
              onOpen={() => void act(t.slug, 'open')}
              onRun={() => void act(t.slug, 'run')}
              blocked={blocked}
            />
          ))}
        </div>
      )}
    </section>
  );
}
