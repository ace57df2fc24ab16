import { iterationName } from './labels';
import { forEachRows } from './loopOutput';
import type { LoopRun } from './reduce';
import { clip, ResultTable } from './ResultTable';

const SHOWN = 200;

/** A forEach step's result as the engine and zenflow's runner give it (`result.iterations`): one row per item. */
export function ForEachResults({ loopKey, loop }: { loopKey: string; loop: LoopRun }) {
  const { rows, more } = forEachRows(loopKey, loop, SHOWN);
  if (!rows.length) return null;
  return (
    <ResultTable
      testId={`foreach-results-${loopKey}`}
      rowTestId="foreach-result-row"
      summary={
        <>
          Result: {rows.length + more} item{rows.length + more === 1 ? '' : 's'} (<code>steps.{loopKey.split('/').pop()}.result.iterations</code>)
        </>
      }
      columns={['item', 'id', 'value', 'status', 'content']}
      rows={rows.map((row) => ({
        key: row.index,
        content: row.content,
        cells: [
          <td key="n">{iterationName('item', row.index)}</td>,
          <td key="id" className="mono">
            {row.id}
          </td>,
          <td key="item" className="mono">
            {clip(row.item, 60)}
          </td>,
          <td key="status">{row.status}</td>,
        ],
      }))}
    >
      {more > 0 && <p className="muted small">…and {more} more: the Rounds tab and GET /runs/{'{id}'}/iterations have them all.</p>}
    </ResultTable>
  );
}
