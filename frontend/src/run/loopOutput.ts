// What a loop hands on, in words and text, as the run view shows it.
import type { IterationRun, LoopRun } from './reduce';

/** What the loop step outputs so far: every finished iteration (cumulative, as the engine and zenflow's runner
 * write it: `## Iteration N`, then `### step` for each inner step, then the judge's feedback) or the latest one.
 * Once the loop has ended, the engine's own text. */
export function loopOutput(loop: LoopRun, mode: 'cumulative' | 'last'): string {
  if (loop.cumulative !== undefined && loop.ended) return loop.cumulative;
  const done = loop.iterations.filter((it) => it.status === 'completed' && it.content !== undefined);
  // A forEach hands on the output of its last item (by index) that completed, in either mode (zenflow's rule);
  // its result lists them all.
  if (loop.loopType === 'forEach') {
    const byIndex = [...done].sort((a, b) => a.iteration - b.iteration);
    return byIndex.length ? (byIndex[byIndex.length - 1].content as string) : '';
  }
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

/** One row of a forEach step's result (`result.iterations`), as the run page lists it. */
export interface ItemRow {
  id: string;
  index: number;
  item: string;
  status: string;
  content: string;
}

/** The rows of a forEach's result table, in item order, at most ``limit`` (the rest are counted). */
export function forEachRows(loopKey: string, loop: LoopRun, limit = 200): { rows: ItemRow[]; more: number } {
  const items = [...loop.iterations].sort((a, b) => a.iteration - b.iteration);
  const rows = items.slice(0, limit).map((it) => ({
    id: iterationId(loopKey, it),
    index: it.iteration,
    item: typeof it.item === 'string' ? it.item : JSON.stringify(it.item ?? null),
    status: it.status,
    content: it.content ?? '',
  }));
  return { rows, more: Math.max(0, items.length - limit) };
}
