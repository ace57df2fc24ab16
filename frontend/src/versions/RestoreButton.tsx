// "Restore version N": asks first, then saves that version's document as the new latest version.
import { useState } from 'react';
import { api, errorText } from '../api/client';
import type { Workflow } from '../api/types';
import { Modal } from '../components/Modal';

interface Props {
  workflowId: number;
  version: number;
  /** The latest version now: the restored one becomes the next. */
  latest: number;
  onRestored: (wf: Workflow) => void;
  /** Why it cannot be done (a viewer's role), shown on the disabled button. */
  blocked?: string | null;
  className?: string;
  /** "Restore…" where space is short (a screen reader still hears which version). */
  compact?: boolean;
}

export function RestoreButton({ workflowId, version, latest, onRestored, blocked, className = 'btn small', compact = false }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    if (busy) return;
    setAsking(false);
    setError(null);
  };
  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      const wf = await api.restoreVersion(workflowId, version);
      setAsking(false);
      onRestored(wf);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={className} disabled={!!blocked} title={blocked ?? undefined} onClick={() => setAsking(true)} data-testid={`restore-${version}`}>
        Restore{compact ? <span className="sr-only"> version {version}</span> : ` version ${version}`}…
      </button>
      {asking && (
        <Modal onClose={close} label={`Restore version ${version}`}>
          <div className="modal modal-narrow" data-testid="restore-confirm">
            <header className="modal-head">
              <h3>Restore version {version}?</h3>
            </header>
            <p>
              Version {version}’s document and layout are saved again as version {latest + 1}, the new latest version. Nothing is deleted: version {latest} and
              every other version stay in the history.
            </p>
            {error && (
              <p className="field-problem error" role="alert">
                Could not restore: {error}
              </p>
            )}
            <footer className="modal-foot">
              <button type="button" className="btn ghost" onClick={close} disabled={busy}>
                Cancel
              </button>
              <span className="spacer" />
              <button type="button" className="btn primary" onClick={() => void restore()} disabled={busy} data-autofocus>
                {busy ? 'Restoring…' : `Restore as version ${latest + 1}`}
              </button>
            </footer>
          </div>
        </Modal>
      )}
    </>
  );
}
