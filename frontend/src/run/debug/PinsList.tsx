// The workflow's pinned outputs in the run dialog: the switch that turns them all off for a run, and the list with
// a clear for each and for all (GET / DELETE /workflows/{id}/pins). Nothing shows for a workflow without pins.
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Pin } from '../../api/types';
import './debug.css';

export function PinsList({ workflowId, use, onUse }: { workflowId: number | null; use: boolean; onUse: (use: boolean) => void }) {
  const [pins, setPins] = useState<Pin[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (workflowId === null) return;
    api.listPins(workflowId).then(setPins, () => setPins([]));
  }, [workflowId]);
  if (workflowId === null || pins.length === 0) return null;
  const clear = async (step?: string) => {
    setError(null);
    try {
      await api.clearPins(workflowId, step);
      setPins(step === undefined ? [] : pins.filter((p) => p.step_path !== step && !p.step_path.startsWith(`${step}.`)));
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <div className="field" data-testid="run-pins">
      <span className="field-label">Pinned outputs</span>
      <span className="check">
        <input type="checkbox" checked={use} onChange={(e) => onUse(e.target.checked)} data-testid="run-use-pins" />
        Use {pins.length} pinned output{pins.length === 1 ? '' : 's'} (those steps do not ask their model)
      </span>
      <ul className="pins-list">
        {pins.map((p) => (
          <li key={p.id} data-testid={`pinned-${p.step_path}`}>
            <code title={p.step_path}>{p.step_path}</code>
            <span className="pin-text muted small" title={p.content}>
              {p.content}
            </span>
            <button type="button" className="btn ghost small" onClick={() => void clear(p.step_path)} data-testid={`clear-pin-${p.step_path}`}>
              Clear
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn ghost small" onClick={() => void clear()} data-testid="clear-all-pins">
        Clear all pins
      </button>
      {error && (
        <p role="alert" className="field-problem error">
          {error}
        </p>
      )}
    </div>
  );
}
