import { useEffect, useRef, useState } from 'react';
import { pushSample, throughput, type Sample } from './throughput';

/**
 * Items finished per second over the last ten seconds, from the counts seen and when. Re-read each
 * second while `ticking`, so the rate falls while nothing finishes (and holds while paused); null
 * until there is a second of data.
 */
export function useRate(done: number, ticking: boolean): number | null {
  const samples = useRef<Sample[]>([]);
  const [rate, setRate] = useState<number | null>(null);
  useEffect(() => {
    samples.current = pushSample(samples.current, { t: performance.now(), done });
  }, [done]);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setRate(throughput(samples.current, performance.now())), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return rate;
}
