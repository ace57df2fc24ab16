import type { ToolChoice } from './toolChoices';

/** A checkbox per tool, its description as a hint; a name this server lacks is flagged, never dropped. */
export function ToolChecklist({
  choices,
  onToggle,
  testIdPrefix,
  label,
  disabled,
  compact,
}: {
  choices: ToolChoice[];
  onToggle: (name: string, on: boolean) => void;
  /** data-testid of each checkbox: `${testIdPrefix}-${name}`. */
  testIdPrefix: string;
  /** The group's name for assistive technology. */
  label: string;
  disabled?: boolean;
  /** On one wrapping line, the descriptions as tooltips only. */
  compact?: boolean;
}) {
  return (
    // The group wraps the list: a role on the <ul> itself would stop its items counting as list items.
    <div role="group" aria-label={label}>
    <ul className={`tool-checklist${compact ? ' compact' : ''}`}>
      {choices.map((c) => (
        <li key={c.name} className={c.known ? undefined : 'tool-unknown'}>
          <label className="check" title={c.description || undefined}>
            <input type="checkbox" checked={c.checked} disabled={disabled} onChange={(e) => onToggle(c.name, e.target.checked)} data-testid={`${testIdPrefix}-${c.name}`} />
            <span className="mono">{c.name}</span>
            {c.ours && <span className="pill small" title="Other runners of the format may not have this tool">this server</span>}
          </label>
          {c.description && !compact && <div className="field-help">{c.description}</div>}
          {!c.known && <div className="field-problem warning">not provided by this server</div>}
        </li>
      ))}
    </ul>
    </div>
  );
}
