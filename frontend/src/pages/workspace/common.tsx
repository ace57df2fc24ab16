// Parts every section of the workspace settings page shares: a titled section, its error next to it,
// and a helper that runs a server call with busy and error state.
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
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

export function FormError({ error, id, testId }: { error: string | null; id?: string; testId?: string }) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert" id={id} data-testid={testId}>
      <div className="banner-body">{error}</div>
    </div>
  );
}

export function Section({ title, intro, testId, children }: { title: string; intro?: ReactNode; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="ws-section" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {intro && <p className="muted small ws-intro">{intro}</p>}
      {children}
    </section>
  );
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
