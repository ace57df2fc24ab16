// GET /runs/{id}/metrics read defensively: the figures are shown, never trusted to be complete.
import { isObject } from '../doc/types';
import { iterationName } from './labels';
import { loopPlaceWords } from './snapshotLabels';

export interface StepMetric {
  tokens: number | null;
  durationMs: number | null;
  status: string;
  /** What the row is called on screen (the judge's turns are named by their loop and iteration). */
  label: string;
}

export interface LoopMetric {
  iterations: number | null;
  meanMs: number | null;
  maxMs: number | null;
  breakReason: string | null;
}

export interface RunMetrics {
  steps: [string, StepMetric][];
  loops: [string, LoopMetric][];
  costUsd: number | null;
  durationS: number | null;
}

function numOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The figures of an answer (MetricsOut), or of anything shaped like one. */
export function readMetrics(m: Readonly<Record<string, unknown>>): RunMetrics {
  const steps: [string, StepMetric][] = [];
  if (isObject(m.steps)) {
    for (const [id, raw] of Object.entries(m.steps)) {
      if (!isObject(raw)) continue;
      const tokens = isObject(raw.tokens) ? numOrNull(raw.tokens.total) : numOrNull(raw.tokens);
      const judged = raw.kind === 'judge' && typeof raw.loop === 'string' && typeof raw.iteration === 'number';
      // The coordinator's turns have no step: their row says whose they are (a step may be called `coordinator` too).
      // The judge's row in words, 1-based, its id beside: "write · the judge of round 3 (write.2.untilAgent)".
      const inLoop = loopPlaceWords(id);
      const label = judged ? `${raw.loop} · the judge of ${iterationName('round', raw.iteration as number)} (${id})` : raw.kind === 'coordinator' ? 'the coordinator (no step)' : inLoop ? `${inLoop} (${id})` : id;
      steps.push([id, { tokens, durationMs: numOrNull(raw.duration_ms), status: typeof raw.status === 'string' ? raw.status : '', label }]);
    }
  }
  const loops: [string, LoopMetric][] = [];
  if (isObject(m.loops)) {
    for (const [id, raw] of Object.entries(m.loops)) {
      if (!isObject(raw)) continue;
      const d = isObject(raw.duration_ms) ? raw.duration_ms : {};
      loops.push([
        id,
        {
          iterations: numOrNull(raw.iterations) ?? numOrNull(raw.rounds_completed),
          meanMs: numOrNull(d.mean),
          maxMs: numOrNull(d.max),
          breakReason: typeof raw.break_reason === 'string' ? raw.break_reason : null,
        },
      ]);
    }
  }
  return { steps, loops, costUsd: numOrNull(m.cost_usd), durationS: numOrNull(m.duration_s) };
}
