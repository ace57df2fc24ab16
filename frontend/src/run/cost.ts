// A run's cost as people should read it. A simulated run spends nothing, yet its agents' models have
// prices: the figure is what the same tokens would cost for real, so it is shown as an estimate,
// never as money spent beside "Simulated (no cost)".
export interface CostText {
  text: string;
  title?: string;
}

export const SIMULATED_COST_TITLE =
  'Simulated: nothing was spent. This is what these tokens would cost with the agents’ models for real.';

/** The cost's words, or null when the run has no cost figure. */
export function costText(cost: number | null | undefined, provider: string | null | undefined): CostText | null {
  if (typeof cost !== 'number') return null;
  const money = `$${cost.toFixed(4)}`;
  if (provider === 'simulated') return { text: `≈${money} if real`, title: SIMULATED_COST_TITLE };
  return { text: money };
}
