// How the agent inspector's model picker words a model: its prices per million tokens and its provider.
import type { ModelChoice } from '../../api/types';

function usd(value: number): string {
  if (value === 0) return '$0';
  return value < 0.1 ? `$${value.toPrecision(2)}` : `$${value.toFixed(2).replace(/\.00$/, '')}`;
}

/** "Gemini 2.5 Flash · $0.30 in / $2.50 out per M tokens" (the input price left out when not known). */
export function choiceLabel(choice: ModelChoice): string {
  const input = choice.input_usd_per_mtok;
  const prices = input === null || input === undefined ? `${usd(choice.output_usd_per_mtok)} out` : `${usd(input)} in / ${usd(choice.output_usd_per_mtok)} out`;
  return `${choice.label} · ${prices} per M tokens`;
}
