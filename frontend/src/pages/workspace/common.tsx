// Helpers every section of the workspace settings page shares: its props, a server call run with busy and
// error state, and a list the server keeps. The sections' chrome is SettingsSection's.
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import type { WorkspaceDetail } from '../../api/types';

export interface SectionProps {
  detail: WorkspaceDetail;
  me: string | null;
  /** The server answered with the workspace's new detail. */
  onDetail: (d: WorkspaceDetail) => void;
}

/** Runs one server call at a time; its error stays next to the form until the next try. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (fn: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

/** A list the server keeps (``fetchList`` must be stable): loaded now, reloaded by ``load``, its error kept beside it. */
export function useServerList<T>(fetchList: () => Promise<T[]>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    fetchList().then(
      (list) => {
        setItems(list);
        setError(null);
      },
      (e) => setError(errorText(e)),
    );
  }, [fetchList]);
  useEffect(load, [load]);
  return { items, setItems, error, load };
}
