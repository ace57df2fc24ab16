// How fast a forEach's items finish, from the successive views' finished counts
// and the times they arrived, and when the rest should be done at that rate.

export interface Sample {
  /** When the count was seen, in ms (any steady clock). */
  t: number;
  /** Items finished by then. */
  done: number;
}

/** The window the rate is measured over. */
export const RATE_WINDOW_MS = 10_000;
/** Shorter than this, a rate says little. */
const MIN_SPAN_MS = 1_000;

/**
 * The samples with a new one, less those that left the window (the newest of them stays as the
 * window's start). A count that went down (the loop started over) starts the samples over.
 */
export function pushSample(samples: readonly Sample[], next: Sample, windowMs = RATE_WINDOW_MS): Sample[] {
  const last = samples[samples.length - 1];
  if (last && next.done < last.done) return [next];
  if (last && next.done === last.done && samples.length > 1) {
    // The same count again: the newer time says nothing the window does not.
    return prune([...samples], next.t, windowMs);
  }
  return prune([...samples, next], next.t, windowMs);
}

function prune(samples: Sample[], now: number, windowMs: number): Sample[] {
  let first = 0;
  while (first + 1 < samples.length && samples[first + 1].t <= now - windowMs) first++;
  return first ? samples.slice(first) : samples;
}

/** Items finished per second over the window up to `now`; null until there is a second of data. */
export function throughput(samples: readonly Sample[], now: number, windowMs = RATE_WINDOW_MS): number | null {
  if (!samples.length) return null;
  const last = samples[samples.length - 1];
  let base = samples[0];
  for (const s of samples) {
    if (s.t >= now - windowMs) break;
    base = s;
  }
  const span = now - base.t;
  if (span < MIN_SPAN_MS) return null;
  return Math.max(0, (last.done - base.done) / (span / 1000));
}

/** Seconds until `remaining` items are done at `rate` a second; null when it cannot be told. */
export function eta(remaining: number, rate: number | null): number | null {
  if (remaining <= 0) return 0;
  if (!rate || rate <= 0) return null;
  return remaining / rate;
}

/** The rate over a whole finished loop, from its start and end times. */
export function overallRate(done: number, started: string | null, ended: string | null): number | null {
  if (!started || !ended) return null;
  const span = Date.parse(ended) - Date.parse(started);
  if (!Number.isFinite(span) || span <= 0) return null;
  return done / (span / 1000);
}

/** "12.5/s", "0.4/s", "1,200/s". */
export function rateText(rate: number): string {
  if (rate >= 100) return `${Math.round(rate).toLocaleString()}/s`;
  if (rate >= 10) return `${rate.toFixed(1)}/s`;
  return `${rate.toFixed(2)}/s`;
}
