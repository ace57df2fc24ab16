// "Compare with…" on a run: the other recent runs of its workflow to pick from.
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Run } from '../../api/types';
import { Modal } from '../../components/Modal';
import { when } from '../../format/dates';
import { navigate } from '../../router';
import { shortId } from '../labels';
import './compare.css';

/** Runs offered: the newest ones of the same workflow. */
const OFFERED = 30;

function Picker({ run, onClose }: { run: Pick<Run, 'id' | 'workflow_id'>; onClose: () => void }) {
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.runPage({ workflow: run.workflow_id, limit: OFFERED + 1 }).then(
      (page) => setRuns(page.items.filter((r) => r.id !== run.id).slice(0, OFFERED)),
      (e) => setError(errorText(e)),
    );
  }, [run]);
  return (
    <Modal onClose={onClose} label="Compare with another run">
      <div className="modal" data-testid="compare-picker">
        <h2>Compare with another run</h2>
        {error && <p role="alert">{error}</p>}
        {!runs && !error && <p className="muted">Loading the workflow's runs…</p>}
        {runs && runs.length === 0 && <p className="muted">This workflow has no other run yet.</p>}
        {runs && runs.length > 0 && (
          <ul className="compare-picks">
            {runs.map((r) => (
              <li key={r.id}>
                <button type="button" className="btn ghost" onClick={() => void navigate(`/runs/${run.id}/compare/${r.id}`)}>
                  Run {shortId(r.id)} · {r.status} · version {r.version ?? '?'} · {r.provider} · {when(r.created_at)}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Modal>
  );
}

export function CompareWithButton({ run }: { run: Pick<Run, 'id' | 'workflow_id'> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn ghost small" data-testid="compare-with" onClick={() => setOpen(true)}>
        Compare with…
      </button>
      {open && <Picker run={run} onClose={() => setOpen(false)} />}
    </>
  );
}
