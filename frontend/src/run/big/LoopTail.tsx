import { memo, useEffect, useRef } from 'react';
import { Pre } from '../Pre';

/** Closer to the bottom than this (px) counts as reading the newest output. */
const AT_END = 16;

/**
 * What the loop hands on so far: the view keeps its last 64 kB. Kept scrolled to the newest text
 * while the reader is there; scrolled up to read, it stays put.
 */
export const LoopTail = memo(function LoopTail({ loopId, output, truncated }: { loopId: string; output: string; truncated: boolean }) {
  const pre = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const el = pre.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [output]);
  return (
    <div className="loop-tail">
      <h4 className="side-title">
        Output so far
        {truncated && (
          <span className="muted small" data-testid={`loop-output-cut-${loopId}`}>
            (earlier output cut)
          </span>
        )}
      </h4>
      <Pre
        text={output}
        testId={`loop-output-${loopId}`}
        empty="Nothing yet: appears as iterations finish."
        ref={pre}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollTop + el.clientHeight >= el.scrollHeight - AT_END;
        }}
      />
    </div>
  );
});
