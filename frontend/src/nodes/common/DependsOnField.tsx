import type { Diag } from '../../api/types';
import { ProblemLines } from '../../forms/fields';
import { VisuallyHidden } from './VisuallyHidden';

// A fieldset drawn as the other fields are (the style sheet's .field), without the browser's frame.
const PLAIN = { border: 0, padding: 0, marginInline: 0, minWidth: 0 };

/**
 * Dependencies as a group of checkboxes, one per other step of the scope:
 * Tab reaches each, Space ticks it, and a screen reader says "Depends on
 * draft". A dependency that names no step of the scope shows too, to untick.
 */
export function DependsOnField({
  siblings,
  deps,
  help,
  problems,
  onToggle,
}: {
  siblings: readonly string[];
  deps: readonly string[];
  help?: string;
  problems: Diag[];
  onToggle: (id: string, on: boolean) => void;
}) {
  const hasError = problems.some((p) => p.blocks_run || p.severity === 'error');
  const missing = deps.filter((d) => !siblings.includes(d));
  return (
    <fieldset
      className={`field${hasError ? ' has-error' : problems.length ? ' has-warning' : ''}`}
      style={PLAIN}
      data-field="dependsOn"
      aria-describedby={help ? 'f-dependsOn-help' : undefined}
      data-testid="depends-on"
    >
      <legend className="field-label" style={{ padding: 0 }}>
        Depends on
      </legend>
      <div className="checks" id="f-dependsOn">
        {siblings.length === 0 && <span className="muted small">No other step in this scope.</span>}
        {siblings.map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked={deps.includes(id)} onChange={(e) => onToggle(id, e.target.checked)} />
            <VisuallyHidden>Depends on </VisuallyHidden>
            <span className="mono">{id}</span>
          </label>
        ))}
        {missing.map((d) => (
          <label key={`missing-${d}`} className="check missing" title="Not a step of this scope">
            <input type="checkbox" checked onChange={() => onToggle(d, false)} />
            <VisuallyHidden>Depends on </VisuallyHidden>
            <span className="mono">{d}</span>
            <span className="small"> (not a step of this scope)</span>
          </label>
        ))}
      </div>
      <ProblemLines problems={problems} />
      {help && (
        <div className="field-help" id="f-dependsOn-help">
          {help}
        </div>
      )}
    </fieldset>
  );
}
