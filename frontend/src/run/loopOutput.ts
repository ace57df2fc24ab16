// What a loop hands on, in words and text, as the run view shows it.
import type { IterationRun, LoopRun } from './reduce';

/** What the loop step outputs so far: every finished iteration (cumulative, as the engine and zenflow's runner
 * write it: `## Iteration N`, then `### step` for each inner step, then the judge's feedback) or the latest one.
 * Once the loop has ended, the engine's own text. */
export function loopOutput(loop: LoopRun, mode: 'cumulative' | 'last'): string {
  if (loop.cumulative !== undefined && loop.ended) return loop.cumulative;
  const done = loop.iterations.filter((it) => it.status === 'completed' && it.content !== undefined);
  if (mode === 'last') return done.length ? (done[done.length - 1].content as string) : '';
  return done.map(roundText).join('');
}

function roundText(it: IterationRun): string {
  const inner = Object.entries(it.steps).filter(([, step]) => step.status === 'completed' || step.status === 'failed');
  const body = inner.length ? inner.map(([id, step]) => `### ${id}\n${step.output ?? ''}\n\n`).join('') : `${it.content ?? ''}\n\n`;
  const verdict = it.verdict;
  const feedback = verdict && !verdict.failedOpen && verdict.content ? `## Judge Feedback (Iteration ${it.iteration + 1})\n${verdict.content}\n\n` : '';
  return `## Iteration ${it.iteration + 1}\n${body}${feedback}`;
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
