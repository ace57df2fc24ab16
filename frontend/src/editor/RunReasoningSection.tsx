// The run dialog's reasoning level (upstream's --thinking): each provider's own setting for every agent and judge.
import { THINKING_LEVELS, isThinkingLevel, type ThinkingLevel } from '../run/permissions';

const WORDS: Record<ThinkingLevel, string> = {
  off: 'Off (no reasoning asked for)',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

/** `value` null: nothing is asked, each model reasons as its provider's default. */
export function RunReasoningSection({ value, onChange }: { value: ThinkingLevel | null; onChange: (next: ThinkingLevel | null) => void }) {
  return (
    <label className="field">
      <span className="field-label">Reasoning level</span>
      <select className="input" value={value ?? ''} onChange={(e) => onChange(isThinkingLevel(e.target.value) ? e.target.value : null)} data-testid="run-thinking">
        <option value="">Provider default (nothing asked)</option>
        {THINKING_LEVELS.map((level) => (
          <option key={level} value={level}>
            {WORDS[level]}
          </option>
        ))}
      </select>
      <span className="field-help">As zenflow’s --thinking: sent as each provider’s own setting (OpenAI’s reasoning_effort, Anthropic’s thinking budget); reasoning tokens count in the cost, and the reasoning a provider returns shows folded in each step.</span>
    </label>
  );
}
