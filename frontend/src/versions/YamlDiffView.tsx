// The YAML of two versions line by line, unified or side by side. Each changed line says + or −
// in text beside its colour; unchanged runs fold behind a bar that opens them.
import { useMemo, useState } from 'react';
import { diffRows, foldRows, lineCounts, splitRows, type Fold, type Row } from './yamlDiff';

type Mode = 'unified' | 'split';
const MODE_KEY = 'ld:version-diff-mode';

function savedMode(): Mode {
  try {
    return window.localStorage.getItem(MODE_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

const NONE_OPEN: ReadonlySet<number> = new Set();

const MARK: Record<Row['kind'], string> = { add: '+', del: '−', same: ' ' };
const SAID: Record<Row['kind'], string> = { add: 'added', del: 'removed', same: '' };

function FoldBar({ fold, columns, onOpen }: { fold: Fold; columns: number; onOpen: (start: number) => void }) {
  return (
    <tr className="ydiff-fold">
      <td colSpan={columns}>
        <button type="button" className="ydiff-open" onClick={() => onOpen(fold.start)}>
          Show {fold.count} unchanged lines
        </button>
      </td>
    </tr>
  );
}

/** One side's cells: line number, the +/− mark, the text. */
function Cells({ row, side }: { row: Row | null; side: 'old' | 'new' }) {
  if (!row) return <td className="ydiff-empty" colSpan={3} />;
  return (
    <>
      <td className="ydiff-ln">{row[side]}</td>
      <td className={`ydiff-mark ydiff-${row.kind}`} aria-label={SAID[row.kind] || undefined}>
        {MARK[row.kind]}
      </td>
      <td className={`ydiff-code ydiff-${row.kind}`}>{row.text}</td>
    </>
  );
}

/** `title`: what the texts are (the YAML by default; a folder file's path on the file changes). */
export function YamlDiffView({
  before,
  after,
  labels,
  title = 'YAML',
  testId = 'yaml-diff',
}: {
  before: string;
  after: string;
  labels: [string, string];
  title?: string;
  testId?: string;
}) {
  const [mode, setMode] = useState<Mode>(savedMode);
  const [open, setOpen] = useState<{ key: string; starts: ReadonlySet<number> }>({ key: '', starts: NONE_OPEN });
  const diff = useMemo(() => diffRows(before, after), [before, after]);
  // Opened folds belong to this pair of texts; another pair starts folded again.
  const textKey = `${before.length}:${after.length}:${diff.rows.length}`;
  const starts = open.key === textKey ? open.starts : NONE_OPEN;
  const shown = useMemo(() => foldRows(diff.rows, starts), [diff.rows, starts]);
  const counts = lineCounts(diff.rows);
  const openFold = (start: number) => setOpen({ key: textKey, starts: new Set([...starts, start]) });
  const choose = (m: Mode) => {
    setMode(m);
    try {
      window.localStorage.setItem(MODE_KEY, m);
    } catch {
      // A browser that keeps nothing still switches; it just forgets next time.
    }
  };

  return (
    <section className="ydiff-wrap" aria-label={`${title} changes`} data-testid={testId}>
      <header className="ydiff-head">
        <h3 className="ydiff-title" title={title}>
          {title}
        </h3>
        <span className="muted small" data-testid="yaml-counts">
          {counts.added || counts.removed ? `${counts.added} line${counts.added === 1 ? '' : 's'} added, ${counts.removed} removed` : `No change in ${title === 'YAML' ? 'the YAML' : 'the text'}`}
        </span>
        <span className="spacer" />
        <div className="segmented small" role="group" aria-label={`How to show the ${title} changes`}>
          <button type="button" className={mode === 'unified' ? 'active' : ''} aria-pressed={mode === 'unified'} onClick={() => choose('unified')}>
            Unified
          </button>
          <button type="button" className={mode === 'split' ? 'active' : ''} aria-pressed={mode === 'split'} onClick={() => choose('split')}>
            Side by side
          </button>
        </div>
      </header>
      {diff.coarse && <p className="muted small">These texts are too different to line up: every line of one is shown removed and every line of the other added.</p>}
      <div className="ydiff-scroll">
        {mode === 'unified' ? (
          <table className="ydiff" data-mode="unified">
            <thead className="sr-only">
              <tr>
                <th>{labels[0]} line</th>
                <th>{labels[1]} line</th>
                <th>Change</th>
                <th>Text</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((item, i) =>
                item.kind === 'fold' ? (
                  <FoldBar key={`f${item.start}`} fold={item} columns={4} onOpen={openFold} />
                ) : (
                  <tr key={i} className={`ydiff-row ydiff-row-${item.kind}`} data-kind={item.kind}>
                    <td className="ydiff-ln">{item.old}</td>
                    <Cells row={item} side="new" />
                  </tr>
                ),
              )}
            </tbody>
          </table>
        ) : (
          <table className="ydiff ydiff-split" data-mode="split">
            <colgroup>
              <col className="ydiff-col-ln" />
              <col className="ydiff-col-mark" />
              <col />
              <col className="ydiff-col-ln" />
              <col className="ydiff-col-mark" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th colSpan={3}>{labels[0]}</th>
                <th colSpan={3}>{labels[1]}</th>
              </tr>
            </thead>
            <tbody>
              {splitRows(shown).map((item, i) =>
                'kind' in item ? (
                  <FoldBar key={`f${item.start}`} fold={item} columns={6} onOpen={openFold} />
                ) : (
                  <tr key={i} className="ydiff-row">
                    <Cells row={item.left} side="old" />
                    <Cells row={item.right} side="new" />
                  </tr>
                ),
              )}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
