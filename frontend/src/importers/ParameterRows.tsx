// The optional parameters sent with the source: name = value rows; the one the server said is missing is marked.
import type { ParamRows } from './useParamRows';

export function ParameterRows({ params, missingName }: { params: ParamRows; missingName: string | null }) {
  const { rows, setRow, removeRow, addRow, valueRef } = params;
  return (
    <div className="field" style={{ marginTop: 'var(--s3)' }}>
      <span className="field-label">Parameters (optional)</span>
      <div className="field-help">Values for the file's placeholders, such as a Coqui definition's {'{{parameters}}'}.</div>
      <div className="param-rows" style={{ marginTop: 6 }}>
        {rows.map((r, i) => (
          <div key={i} className={`param-row${missingName && r.name.trim() === missingName ? ' missing' : ''}`} data-testid="param-row">
            <input
              className="input mono"
              value={r.name}
              placeholder="name"
              aria-label={`Parameter ${i + 1} name`}
              onChange={(e) => setRow(i, { name: e.target.value })}
            />
            <span aria-hidden>=</span>
            <input
              className="input"
              value={r.value}
              placeholder="value"
              aria-label={`Parameter ${i + 1} value`}
              ref={valueRef(i)}
              onChange={(e) => setRow(i, { value: e.target.value })}
            />
            <button className="icon-btn" aria-label={`Remove parameter ${i + 1}`} onClick={() => removeRow(i)}>
              ×
            </button>
          </div>
        ))}
      </div>
      <button className="btn ghost small" onClick={addRow}>
        + Add a parameter
      </button>
    </div>
  );
}
