// What a loop hands on, in words and text, as the run view shows it.
import type { IterationRun, LoopRun } from './reduce';

/** How the engine joins iterations in a cumulative output. */
export const CUMULATIVE_SEPARATOR = '\n\n---\n\n';

/** What the loop step outputs so far: every finished iteration (cumulative) or the latest one. */
export function loopOutput(loop: LoopRun, mode: 'cumulative' | 'last'): string {
  if (loop.cumulative !== undefined && loop.ended) return loop.cumulative;
  const done = loop.iterations.filter((it) => it.status === 'completed' && it.content);
  if (mode === 'last') return done.length ? (done[done.length - 1].content as string) : '';
  return done.map((it) => it.content as string).join(CUMULATIVE_SEPARATOR);
}

/** " of critic": the inner step(s) an iteration's output comes from (the server's rule), for labels. */
export function sourceWords(sources: readonly string[]): string {
  return sources.length ? ` of ${sources.join(' + ')}` : '';
}

/** The format's own id of an iteration: `loop.N` (repeat-until) or `loop[N]` (forEach), zero-based. */
export function iterationId(loopKey: string, it: IterationRun): string {
  const base = loopKey.split('/').pop() ?? loopKey;
  return it.item !== undefined ? `${base}[${it.iteration}]` : `${base}.${it.iteration}`;
}
