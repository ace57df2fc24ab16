import { forEachRows } from './loopOutput';
import type { LoopRun } from './reduce';

const SHOWN = 200;
const CONTENT_CHARS = 160;

/** A forEach step's result as the engine and zenflow's runner give it (`result.iterations`): one row per item. */
export function ForEachResults({ loopKey, loop }: { loopKey: string; loop: LoopRun }) {
  const { rows, more } = forEachRows(loopKey, loop, SHOWN);
  if (!rows.length) return null;
  return (
    <details className="foreach-results" data-testid={`foreach-results-${loopKey}`}>
      <summary className="small">
        Result: {rows.length + more} item{rows.length + more === 1 ? '' : 's'} (<code>steps.{loopKey.split('/').pop()}.result.iterations</code>)
      </summary>
      <table className="small">
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">item</th>
            <th scope="col">status</th>
            <th scope="col">content</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.index} data-testid="foreach-result-row">
              <td className="mono">{row.id}</td>
              <td className="mono">{row.item.length > 60 ? `${row.item.slice(0, 60)}…` : row.item}</td>
              <td>{row.status}</td>
              <td title={row.content}>{row.content.length > CONTENT_CHARS ? `${row.content.slice(0, CONTENT_CHARS)}…` : row.content}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more > 0 && <p className="muted small">…and {more} more: the Rounds tab and GET /runs/{'{id}'}/iterations have them all.</p>}
    </details>
  );
}
