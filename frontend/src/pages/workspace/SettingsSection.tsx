// The chrome every section of the workspace settings page shares: a titled section with its introduction,
// the error next to a form, and the line that says a change was saved.
import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  /** A line under the title: what the section is for. */
  intro?: ReactNode;
  testId: string;
  children: ReactNode;
}

export function SettingsSection({ title, intro, testId, children }: Props) {
  const id = useId();
  return (
    <section className="ws-section" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {intro && <p className="muted small ws-intro">{intro}</p>}
      {children}
    </section>
  );
}

/** A server call's error, next to its form (nothing when there is none). */
export function FormError({ error, id, testId }: { error: string | null; id?: string; testId?: string }) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert" id={id} data-testid={testId}>
      <div className="banner-body">{error}</div>
    </div>
  );
}

/** "✓ Saved": a change went through (nothing when `text` is null). */
export function SavedNote({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="small ws-ok" role="status">
      ✓ {text}
    </p>
  );
}
