import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { formatIterationId, iterationName } from '../labels';
import { letterStatus, statusWord } from './bigLabels';
import { cellAt, cellOrigin, changedIndices, gridFor, moveCursor, type Grid } from './gridGeometry';
import { MAX_CANVAS, paintCells, readColours, type Colours } from './gridPaint';
import { useThrottled } from './useLater';

/** What the canvas shows now: a patch repaints what differs from it. */
interface Painted {
  grid: Grid | null;
  letters: string;
  dpr: number;
  colours: Colours | null;
}

export interface ItemGridProps {
  loopId: string;
  /** One status letter per item. */
  letters: string;
  /** The loop's counts in words (the canvas's label) and as the server sent them (data-counts). */
  summary: string;
  counts: Record<string, number>;
  cursor: number | null;
  onCursor(index: number): void;
  onOpen(index: number): void;
  /** The run has ended: an item still queued never ran, and its tooltip says "not run". */
  ended?: boolean;
}

/**
 * A forEach's items as one canvas, a cell per item coloured by status. Patches repaint only the
 * cells whose letter changed; a new width or item count repaints everything. No element per item.
 */
export function ItemGrid({ loopId, letters, summary, counts, cursor, onCursor, onOpen, ended = false }: ItemGridProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const cursorRef = useRef<HTMLDivElement>(null);
  const painted = useRef<Painted>({ grid: null, letters: '', dpr: 0, colours: null });
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const grid = useMemo(() => gridFor(letters.length, width), [letters.length, width]);
  const hintId = useId();

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    // Fires once as it starts observing, then on every change of width.
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || !width) return;
    const state = painted.current;
    state.colours ??= readColours(canvas);
    const dpr = grid.height * (window.devicePixelRatio || 1) > MAX_CANVAS ? 1 : window.devicePixelRatio || 1;
    if (state.grid !== grid || state.dpr !== dpr) {
      // Setting the size clears the canvas and its transform.
      canvas.width = Math.max(1, Math.round(grid.width * dpr));
      canvas.height = Math.max(1, Math.round(grid.height * dpr));
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paintCells(ctx, grid, letters, state.colours, null);
    } else {
      paintCells(ctx, grid, letters, state.colours, changedIndices(state.letters, letters));
    }
    state.grid = grid;
    state.letters = letters;
    state.dpr = dpr;
  }, [grid, letters, width]);

  const shown = cursor !== null && cursor < grid.count ? cursor : null;
  useEffect(() => {
    // A cursor moved by keys, or an item chosen from the failed list, scrolls into view.
    if (shown !== null) cursorRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [shown, grid]);

  const indexAt = (e: MouseEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return cellAt(grid, e.clientX - rect.left, e.clientY - rect.top);
  };
  const onMove = (e: MouseEvent<HTMLCanvasElement>) => {
    const i = indexAt(e);
    if (i !== hover) setHover(i);
  };
  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const i = indexAt(e);
    if (i === null) return;
    onCursor(i);
    onOpen(i);
  };
  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (shown !== null) onOpen(shown);
      else if (grid.count) onCursor(0);
      return;
    }
    const next = moveCursor(grid, shown, e.key);
    if (next === null) return;
    e.preventDefault();
    setHover(null);
    onCursor(next);
  };

  // The tip follows the mouse, or the cursor while the keys move it.
  const tipAt = hover ?? (focused ? shown : null);
  const tip = tipAt !== null ? cellOrigin(grid, tipAt) : null;
  const words = (i: number) => `${iterationName('item', i)} (${formatIterationId(loopId, i, 'item')}): ${statusWord(letterStatus(letters[i]), ended)}`;
  const cursorAt = shown !== null ? cellOrigin(grid, shown) : null;
  const countsJson = JSON.stringify(counts);
  const announced = useThrottled(summary, 10_000);
  return (
    <div className="item-grid" data-items={letters.length} data-counts={countsJson} data-loop={loopId}>
      <div className="item-grid-box" ref={boxRef}>
        <div className="item-grid-inner" style={{ width: grid.width, height: grid.height }}>
          <canvas
            ref={canvasRef}
            className="item-canvas"
            style={{ width: grid.width, height: grid.height }}
            tabIndex={0}
            role="img"
            aria-label={`Items of ${loopId}: ${summary}`}
            aria-describedby={hintId}
            data-testid={`item-grid-${loopId}`}
            data-items={letters.length}
            data-counts={countsJson}
            onMouseMove={onMove}
            onMouseLeave={() => setHover(null)}
            onClick={onClick}
            onKeyDown={onKey}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
          />
          {cursorAt && (
            <div
              ref={cursorRef}
              className="grid-cursor"
              aria-hidden="true"
              style={{ left: cursorAt.x - 2, top: cursorAt.y - 2, width: grid.cell + 4, height: grid.cell + 4 }}
            />
          )}
          {tip && tipAt !== null && (
            <div
              className="grid-tip"
              role="tooltip"
              data-testid="grid-tip"
              style={{ top: tip.y + grid.pitch + 2, ...(tip.x > grid.width - 140 ? { right: grid.width - tip.x - grid.pitch } : { left: tip.x }) }}
            >
              {words(tipAt)}
            </div>
          )}
        </div>
      </div>
      <p id={hintId} className="sr-only">
        Arrow keys move between items, Page Up and Page Down by ten rows; Enter shows the item&apos;s details.
      </p>
      <p className="sr-only" aria-live="polite">
        {announced}
      </p>
      <p className="sr-only" aria-live="polite">
        {shown !== null ? words(shown) : ''}
      </p>
    </div>
  );
}
