// A breakpoint on the selected step, in the step inspector: "hold the run before this step" (a repeat-until:
// before round k; a forEach: before item k; anything else: before the step, in any execution or only in round
// k). It is the breakpoint the step's margin dot on the canvas shows (the same id, the same list in the store,
// the same save), so both agree at once. Breakpoints live beside the workflow in the app, never in its document:
// saving one is no new version.
import { useId, useState } from 'react';
import { api } from '../../api/client';
import { breakpointFor, stepBreakpoint, stepBreakpointId, withBreakpoint, type Breakpoint } from '../../breakpoints/rules';
import { saveBreakpoints } from '../../breakpoints/sync';
import type { NodeKind } from '../../graph/mapping';
import { useEditor, useEditorStore } from '../../store/context';

export function BreakpointToggle({ stepId, kind }: { stepId: string; kind: NodeKind }) {
  const store = useEditorStore();
  const workflowId = useEditor((s) => s.workflowId);
  const all = useEditor((s) => s.breakpoints);
  const [at, setAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const atId = useId();

  const mine = stepBreakpoint(all, stepId);
  const [followed, setFollowed] = useState<Breakpoint | null>(null);
  if (mine !== followed) {
    // The saved breakpoint changed (loaded, saved, set on the canvas): its round or item is what the field shows.
    setFollowed(mine);
    // Shown as the page words rounds and items, from 1 (docs/format.md "Numbering"); kept 0-based, as their ids.
    const shown = mine ? (mine.round ?? mine.item) : undefined;
    setAt(shown === undefined ? '' : String(shown + 1));
  }

  if (workflowId === null) return <p className="muted small">Save the workflow to set breakpoints on its steps.</p>;
  const save = (bp: Breakpoint | null) => {
    setError(null);
    void saveBreakpoints(store, api, withBreakpoint(all ?? [], stepBreakpointId(stepId), bp));
  };
  const typed = at.trim() === '' ? null : Number(at);
  const parsed = typed === null ? null : typed - 1;
  const atWord = kind === 'forEach' ? 'item' : 'round';
  const badAt = `${atWord}: a whole number from 1 (the first ${atWord})`;
  const label = kind === 'repeat' ? 'Hold runs before a round' : kind === 'forEach' ? 'Hold runs before an item' : 'Hold runs before this step';
  return (
    <div className="insp-section breakpoint-toggle" data-testid="breakpoint-toggle">
      <label className="check">
        <input
          type="checkbox"
          checked={!!mine}
          disabled={all === null}
          onChange={(e) => {
            const valid = parsed === null || (Number.isInteger(parsed) && parsed >= 0);
            if (!valid) return setError(badAt);
            save(e.target.checked ? breakpointFor(stepId, kind, parsed) : null);
          }}
          data-testid="breakpoint-checkbox"
        />
        <span>{label} (breakpoint)</span>
      </label>
      <label className="field small" htmlFor={atId}>
        <span>Only {atWord} (1 is the first; empty: every one)</span>
        <input
          id={atId}
          type="number"
          min={1}
          value={at}
          onChange={(e) => setAt(e.target.value)}
          onBlur={() => {
            const saved = mine?.round ?? mine?.item;
            if (!mine || (saved === undefined ? '' : String(saved + 1)) === at.trim()) return;
            if (parsed !== null && !(Number.isInteger(parsed) && parsed >= 0)) return setError(badAt);
            save(breakpointFor(stepId, kind, parsed));
          }}
          data-testid="breakpoint-at"
        />
      </label>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
