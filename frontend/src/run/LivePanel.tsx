import { useEffect, useMemo, useRef } from 'react';
import { useEditor } from '../store/context';
import { breakReasonLabel, iterationKind, plural, stepPlace } from './labels';
import { ForEachResults } from './ForEachResults';
import { LoopOutput } from './LoopOutput';
import { argsLine, runningCalls } from './toolCalls';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';
import { VerdictList } from './VerdictList';

/** What is happening now: the streaming output, the tools running, each loop's progress and output, errors. */
export function LivePanel() {
  const lastOutput = useEditor((s) => s.runState.live);
  const judging = useEditor((s) => s.runState.judging);
  // A judge's reply shows while it streams; then the loop's own output is the last output again.
  const live = judging ?? lastOutput;
  const loops = useEditor((s) => s.runState.loops);
  const { status, reason } = useShownStatus();
  const errors = useEditor((s) => s.runState.errors);
  const streamRef = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (streamRef.current) streamRef.current.scrollTop = streamRef.current.scrollHeight;
  }, [live?.text]);
  return (
    <div>
      {status === 'queued' && <p className="muted">Waiting for a worker to pick the run up…</p>}
      {isTerminal(status) && (
        <div className={`banner banner-${status === 'completed' ? 'info' : 'error'}`} data-testid="run-finished">
          Run {status}
          {reason ? `: ${reason}` : ''}.
        </div>
      )}
      <h4 className="side-title">
        {live && !live.done ? 'Streaming' : 'Last output'}
        {live && (
          <span className="muted small" data-testid="live-output-place">
            {' '}
            · {stepPlace(live.stepId, live.where)}
            {live.agent ? ` (${live.agent})` : ''}{' '}
            {live.where?.loop && (
              <span className="mono" title="The id the format gives this step">
                {live.stepId}
              </span>
            )}
          </span>
        )}
      </h4>
      {live?.text ? (
        <pre className="output stream" ref={streamRef} data-testid="live-output">
          {live.text}
          {!live.done && <span className="caret">▍</span>}
        </pre>
      ) : (
        <p className="muted small">Agent output appears here as it streams.</p>
      )}
      {!isTerminal(status) && <RunningTools />}
      {Object.entries(loops).map(([key, loop]) => (
        <div key={key} className="loop-summary">
          <h4 className="side-title">
            Loop {key}{' '}
            <span className="muted small" data-testid={`loop-summary-${key}`}>
              · {plural(loop.iterations.length, iterationKind(loop.loopType))}
              {loop.ended ? ` · ${breakReasonLabel(loop.ended.reason)}` : ''}
            </span>
          </h4>
          <VerdictList loop={key} iterations={loop.iterations} />
          <LoopOutput loopKey={key} loop={loop} testId={`cumulative-${key}`} />
          {loop.loopType === 'forEach' && <ForEachResults loopKey={key} loop={loop} />}
        </div>
      ))}
      {errors.length > 0 && (
        <>
          <h4 className="side-title">Errors</h4>
          {errors.map((e, i) => (
            <div key={i} className="field-problem error">
              {e}
            </div>
          ))}
        </>
      )}
    </div>
  );
}

/** The tool calls under way now; the Tools tab has every call with its result. */
function RunningTools() {
  const tools = useEditor((s) => s.runState.tools);
  const running = useMemo(() => runningCalls(tools), [tools]);
  if (!running.length) return null;
  return (
    <>
      <h4 className="side-title">Tools running now</h4>
      <ul className="running-tools" data-testid="running-tools">
        {running.map(({ agentId, call }) => (
          <li key={`${agentId}/${call.id}`} className="small">
            <span className="tool-running" /> <strong className="mono">{call.name}</strong> <span className="mono muted">{argsLine(call.input, 80)}</span>{' '}
            <span className="muted">· {agentId}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
