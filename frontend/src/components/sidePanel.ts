// A side panel's width and whether it is collapsed, remembered per panel (localStorage) for the next visit.
import { useCallback, useState } from 'react';

export interface SidePanelState {
  width: number;
  collapsed: boolean;
  setWidth(width: number): void;
  setCollapsed(collapsed: boolean): void;
}

/** The narrowest a panel may be dragged: its tab strip and fields stay usable. */
export const MIN_PANEL = 280;

/** The widest: the canvas beside it keeps at least this much of the window. */
export function maxPanel(): number {
  return Math.max(MIN_PANEL, Math.min(960, window.innerWidth - 420));
}

function read(key: string): { width?: number; collapsed?: boolean } {
  try {
    const saved = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { width?: unknown; collapsed?: unknown };
    return {
      width: typeof saved.width === 'number' && Number.isFinite(saved.width) ? saved.width : undefined,
      collapsed: saved.collapsed === true,
    };
  } catch {
    return {};
  }
}

function write(key: string, value: { width: number; collapsed: boolean }): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the panel still works, it just forgets.
  }
}

export function useSidePanel(key: string, initialWidth: number): SidePanelState {
  const [state, setState] = useState(() => {
    const saved = read(key);
    return { width: saved.width ?? initialWidth, collapsed: saved.collapsed ?? false };
  });
  const update = useCallback(
    (change: Partial<{ width: number; collapsed: boolean }>) =>
      setState((s) => {
        const next = { ...s, ...change };
        write(key, next);
        return next;
      }),
    [key],
  );
  return {
    width: Math.min(Math.max(state.width, MIN_PANEL), maxPanel()),
    collapsed: state.collapsed,
    setWidth: useCallback((width: number) => update({ width: Math.round(width) }), [update]),
    setCollapsed: useCallback((collapsed: boolean) => update({ collapsed }), [update]),
  };
}
