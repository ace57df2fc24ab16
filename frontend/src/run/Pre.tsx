import type { Ref, UIEvent } from 'react';

export function Pre({
  text,
  testId,
  empty,
  ref,
  onScroll,
}: {
  text: string | undefined;
  testId?: string;
  empty?: string;
  ref?: Ref<HTMLPreElement>;
  onScroll?: (e: UIEvent<HTMLPreElement>) => void;
}) {
  // Model output is untrusted: shown as text, never as HTML.
  if (!text) return <p className="muted small">{empty ?? 'Nothing yet.'}</p>;
  return (
    <pre className="output" data-testid={testId} ref={ref} onScroll={onScroll}>
      {text}
    </pre>
  );
}
