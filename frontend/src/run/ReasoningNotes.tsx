import type { ReasoningNote } from './reduce';
import { Pre } from './Pre';

/** A step's reasoning, folded: one entry per model turn that returned reasoning text or counted reasoning tokens. */
export function ReasoningNotes({ notes }: { notes: readonly ReasoningNote[] | undefined }) {
  if (!notes?.length) return null;
  const tokens = notes.reduce((n, r) => n + (r.tokens ?? 0), 0);
  return (
    <details data-testid="step-reasoning">
      <summary>
        Reasoning ({notes.length === 1 ? '1 turn' : `${notes.length} turns`}
        {tokens ? `, ${tokens.toLocaleString()} tokens` : ''})
      </summary>
      {notes.map((r, i) => (
        <details key={i} className="reasoning-turn" data-testid="reasoning-turn">
          <summary className="muted small">
            turn {r.turn ?? '?'}
            {r.tokens !== null ? ` · ${r.tokens.toLocaleString()} reasoning tokens` : ''}
          </summary>
          <Pre text={r.text} empty="The provider counted reasoning tokens but returned no text." />
        </details>
      ))}
    </details>
  );
}
