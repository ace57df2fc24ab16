import { useEffect, useEffectEvent, useState } from 'react';
import { errorText } from '../api/client';

// A snapshot never changes once recorded, so what was read of it is kept (the latest few dozen
// answers) and going back to a snapshot or a file shows it at once.
const KEPT = 40;
const kept = new Map<string, unknown>();

function keep(key: string, value: unknown): void {
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** What `load` answers for `key` (null: nothing to load), read once per key. */
export function useSnapshotData<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [answer, setAnswer] = useState<{ key: string; data: T | null; error: string | null } | null>(null);
  const read = useEffectEvent(load);
  useEffect(() => {
    if (key === null || kept.has(key)) return;
    let live = true;
    read().then(
      (data) => {
        keep(key, data);
        if (live) setAnswer({ key, data, error: null });
      },
      (e) => live && setAnswer({ key, data: null, error: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (key === null) return { data: null, error: null, loading: false };
  if (kept.has(key)) return { data: kept.get(key) as T, error: null, loading: false };
  if (answer?.key === key) return { data: answer.data, error: answer.error, loading: false };
  return { data: null, error: null, loading: true };
}
