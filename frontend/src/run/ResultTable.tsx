import type { ReactNode } from 'react';

const CONTENT_CHARS = 160;

/** Text cut for a table cell, with an ellipsis when cut (the whole text stays in the cell's title). */
export function clip(text: string, chars = CONTENT_CHARS): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** A step's result as a folded table (a forEach's iterations, an include's inner steps): a summary line, a header
 * row, one row per entry; `content` (the last column) is clipped, whole in its title. */
export function ResultTable({ testId, rowTestId, summary, columns, rows, open, children }: {
  testId: string;
  rowTestId: string;
  summary: ReactNode;
  columns: string[];
  rows: { key: string | number; cells: ReactNode[]; content: string }[];
  open?: boolean;
  children?: ReactNode;
}) {
  return (
    <details className="foreach-results" open={open} data-testid={testId}>
      <summary className="small">{summary}</summary>
      <table className="small">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid={rowTestId}>
              {row.cells}
              <td title={row.content}>{clip(row.content)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </details>
  );
}
