// Which real providers the run dialog offers: OpenAI and Anthropic always (a missing key is said beside them),
// upstream's others (Gemini, Bedrock, Azure...) once the workspace can use them, and the one already chosen.
import type { ProviderInfo, ProviderName } from '../api/types';

const ALWAYS: ProviderName[] = ['openai', 'anthropic'];

export function runnableProviders(providers: ProviderInfo[] | null, chosen: ProviderName): ProviderName[] {
  const out = [...ALWAYS];
  for (const p of providers ?? []) {
    if (p.name !== 'simulated' && !out.includes(p.name) && (p.ready || p.name === chosen)) out.push(p.name);
  }
  if (chosen !== 'simulated' && !out.includes(chosen)) out.push(chosen);
  return out;
}
