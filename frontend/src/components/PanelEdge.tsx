// The left edge of a side panel (the inspector, the run page's tabs): drag it, or focus it and use the arrow
// keys, to widen or narrow the panel; its button collapses the panel to a rail that brings it back.
import type { KeyboardEvent, PointerEvent } from 'react';
import { MIN_PANEL, maxPanel, type SidePanelState } from './sidePanel';

const STEP = 32;

const slug = (name: string) => name.replace(/\s+/g, '-');

export function PanelEdge({ panel, name }: { panel: SidePanelState; name: string }) {
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const grip = e.currentTarget;
    grip.setPointerCapture(e.pointerId);
    const startX = e.clientX;
    const startWidth = panel.width;
    // The panel is at the right: dragging its edge left widens it.
    const move = (ev: globalThis.PointerEvent) => panel.setWidth(startWidth + startX - ev.clientX);
    const end = () => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', end);
      grip.removeEventListener('pointercancel', end);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', end);
    grip.addEventListener('pointercancel', end);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = { ArrowLeft: panel.width + STEP, ArrowRight: panel.width - STEP, Home: maxPanel(), End: MIN_PANEL }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    panel.setWidth(to);
  };
  return (
    <div className="panel-edge">
      <div
        className="panel-grip"
        role="separator"
        aria-orientation="vertical"
        aria-label={`Width of the ${name}`}
        aria-valuemin={MIN_PANEL}
        aria-valuemax={maxPanel()}
        aria-valuenow={panel.width}
        tabIndex={0}
        title={`Drag to resize the ${name} (or focus and use ← →)`}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        onDoubleClick={() => panel.setCollapsed(true)}
        data-testid={`resize-${slug(name)}`}
      />
      <button type="button" className="panel-collapse" onClick={() => panel.setCollapsed(true)} title={`Hide the ${name}`} aria-label={`Hide the ${name}`} data-testid={`collapse-${slug(name)}`}>
        ›
      </button>
    </div>
  );
}

/** What a collapsed panel leaves: a slim rail whose button brings the panel back at its width. */
export function PanelRail({ panel, name, testId }: { panel: SidePanelState; name: string; testId?: string }) {
  return (
    <aside className="panel-rail" data-testid={testId}>
      <button type="button" className="panel-expand" onClick={() => panel.setCollapsed(false)} title={`Show the ${name}`} aria-expanded={false} data-testid={`expand-${slug(name)}`}>
        <span aria-hidden>‹</span>
        <span className="panel-rail-name">{name}</span>
      </button>
    </aside>
  );
}
