export function Pre({ text, testId, empty }: { text: string | undefined; testId?: string; empty?: string }) {
  // Model output is untrusted: shown as text, never as HTML.
  if (!text) return <p className="muted small">{empty ?? 'Nothing yet.'}</p>;
  return (
    <pre className="output" data-testid={testId}>
      {text}
    </pre>
  );
}
