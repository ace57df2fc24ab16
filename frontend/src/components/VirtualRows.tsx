// A long list drawn a window at a time (@tanstack/react-virtual), so a run with thousands of events
// or hundreds of loop items keeps a few dozen rows in the page. Rows above and below the window are
// stood in for by empty space of their height, so the scroll bar still tells the whole length.
import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';
import './virtualRows.css';

/** Lists this long or shorter are drawn whole: cheap, and every row stays findable (the browser's find, tests, screen readers). */
export const PLAIN_UP_TO = 100;
/** Rows drawn past each edge of the view: a quick scroll meets rows, not blank space, and a table's header (not counted) is covered. */
const OVERSCAN = 10;
/** Pixels from the bottom that still count as at the bottom: zoomed pages scroll in fractions. */
const AT_END_SLACK = 4;

/** What a row spreads onto its element: in a window, how the row is measured (an estimate is off by a pixel or a wrapped line). */
export interface RowProps {
  ref?: (node: HTMLElement | null) => void;
  'data-index'?: number;
}

type Shape = { as: 'ol' | 'ul' } | { as: 'table'; head: ReactNode; columns: number };

type Props = Shape & {
  count: number;
  /** A row's height in pixels: where the window starts before rows are measured. */
  estimateSize: number;
  /** Row `index`: an `<li>` or a `<tr>` with its key, `props` spread onto it. */
  renderRow: (index: number, props: RowProps) => ReactNode;
  /** The list's or table's own class and test id. */
  className?: string;
  testId?: string;
  /** Names the scroll box, which then takes the keyboard's focus to scroll. */
  label?: string;
  /** Keep the last row in view as rows come, unless the reader has scrolled up. */
  followEnd?: boolean;
  /** The scroll box's size until it is measured: tests and server rendering have no layout. */
  initialRect?: Rect;
};

const PLAIN: RowProps = {};

export function VirtualRows(props: Props) {
  const { count, estimateSize, renderRow, className, testId, label, followEnd = false, initialRect } = props;
  const box = useRef<HTMLDivElement>(null);
  const windowed = count > PLAIN_UP_TO;
  const estimate = useCallback(() => estimateSize, [estimateSize]);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build (vite.config.ts), so nothing memoizes what the virtualizer returns
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLElement>({
    count,
    getScrollElement: () => box.current,
    estimateSize: estimate,
    overscan: OVERSCAN,
    enabled: windowed,
    initialRect,
  });

  // Read at each scroll, not at each new row: by then the new row has already pushed the bottom away.
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (!followEnd || !atEnd.current || !el || !count) return;
    if (windowed) virtualizer.scrollToEnd();
    else el.scrollTop = el.scrollHeight;
  }, [followEnd, count, windowed, virtualizer]);

  const items = windowed ? virtualizer.getVirtualItems() : [];
  const first = items[0];
  const last = items[items.length - 1];
  const before = first?.start ?? 0;
  const after = windowed ? virtualizer.getTotalSize() - (last?.end ?? 0) : 0;
  const rows = windowed
    ? items.map((item) => renderRow(item.index, { ref: virtualizer.measureElement, 'data-index': item.index }))
    : Array.from({ length: count }, (_, i) => renderRow(i, PLAIN));

  let body: ReactNode;
  if (props.as === 'table') {
    const spacer = (height: number) => (
      <tr aria-hidden="true">
        <td colSpan={props.columns} style={{ height, padding: 0, border: 0 }} />
      </tr>
    );
    body = (
      <table className={className} data-testid={testId}>
        <thead>{props.head}</thead>
        <tbody>
          {before > 0 && spacer(before)}
          {rows}
          {after > 0 && spacer(after)}
        </tbody>
      </table>
    );
  } else {
    const List = props.as;
    // Padding stands in for the rows outside the window; `start` keeps an ordered list's numbers right.
    body = (
      <List
        className={className}
        data-testid={testId}
        start={windowed && List === 'ol' && first ? first.index + 1 : undefined}
        style={windowed ? { paddingTop: before, paddingBottom: after } : undefined}
      >
        {rows}
      </List>
    );
  }
  return (
    <div
      ref={box}
      className="virtual-rows"
      role={label ? 'group' : undefined}
      aria-label={label}
      tabIndex={label ? 0 : undefined}
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_SLACK;
      }}
    >
      {body}
    </div>
  );
}
