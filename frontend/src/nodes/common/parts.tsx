// Pieces every node kind draws: handles, chips, problem badges, run status.
import type { ReactNode } from 'react';
import { Handle, Position } from '@xyflow/react';
import { useEditor } from '../../store/context';
import type { StepRun } from '../../run/reduce';
import { countWords } from './accessibleNames';
import { useProblemCount } from './problemCounts';
import { VisuallyHidden } from './VisuallyHidden';

export function useStepRun(key: string): StepRun | undefined {
  return useEditor((s) => s.runState.steps[key]);
}

/** Problem counts: a glyph and a number beside the colour, and the words for a screen reader. */
export function ProblemBadges({ nodeKey }: { nodeKey: string }) {
  const p = useProblemCount(nodeKey);
  if (!p) return null;
  return (
    <span className="badges">
      {p.errors > 0 && (
        <span className="badge badge-error" title={`${countWords(p.errors, 'problem')} to fix before it runs`} data-testid="error-badge">
          <span aria-hidden="true">✕{p.errors}</span>
          <VisuallyHidden>{countWords(p.errors, 'problem')}</VisuallyHidden>
        </span>
      )}
      {p.warnings > 0 && (
        <span className="badge badge-warning" title={countWords(p.warnings, 'warning')} data-testid="warning-badge">
          <span aria-hidden="true">⚠{p.warnings}</span>
          <VisuallyHidden>{countWords(p.warnings, 'warning')}</VisuallyHidden>
        </span>
      )}
    </span>
  );
}

/** A running step of a paused run says "paused": it finishes what it started, then nothing new starts. */
export function useShownStepStatus(key: string): string | undefined {
  return useEditor((s) => {
    const status = s.runState.steps[key]?.status;
    return status === 'running' && s.run?.status === 'paused' ? 'paused' : status;
  });
}

export function RunStatus({ nodeKey }: { nodeKey: string }) {
  const run = useStepRun(nodeKey);
  const status = useShownStepStatus(nodeKey);
  if (!run || !status) return null;
  return (
    <span className={`status status-${status}`} data-testid="node-status" title={run.error ?? status}>
      {status}
      {run.duration ? ` · ${run.duration}` : ''}
      {run.pinned ? ' · pinned' : ''}
    </span>
  );
}

/** Status class for the node frame while a run is shown. */
export function useRunClass(key: string): string {
  const status = useShownStepStatus(key);
  return status ? ` run-${status}` : '';
}

export function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Left} className="handle" />
      <Handle type="source" position={Position.Right} className="handle" />
    </>
  );
}

export function Chip({ label, value, title, mono }: { label?: string; value: ReactNode; title?: string; mono?: boolean }) {
  return (
    <span className={`chip${mono ? ' mono' : ''}`} title={title}>
      {label && <span className="chip-label">{label}</span>}
      <span className="chip-value">{value}</span>
    </span>
  );
}
