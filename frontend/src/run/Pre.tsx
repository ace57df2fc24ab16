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
  // Focusable: a long output scrolls, and a keyboard user must be able to scroll it too.
  return (
    <pre className="output" data-testid={testId} ref={ref} onScroll={onScroll} tabIndex={0}>
      {text}
    </pre>
  );
}
