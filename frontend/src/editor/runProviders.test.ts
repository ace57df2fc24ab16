import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../api/types';
import { runnableProviders } from './runProviders';

const info = (name: ProviderInfo['name'], ready: boolean): ProviderInfo => ({ name, label: name, ready, key_source: ready ? 'workspace' : null, needs_key: true });

describe('runnableProviders', () => {
  it('offers OpenAI and Anthropic before the list has come', () => {
    expect(runnableProviders(null, 'simulated')).toEqual(['openai', 'anthropic']);
  });

  it('adds the other providers the workspace can use, not those without a key', () => {
    const list = [info('simulated', true), info('openai', false), info('anthropic', false), info('google', true), info('bedrock', false)];
    expect(runnableProviders(list, 'simulated')).toEqual(['openai', 'anthropic', 'google']);
  });

  it('keeps the provider already chosen even without a key', () => {
    expect(runnableProviders([info('bedrock', false)], 'bedrock')).toEqual(['openai', 'anthropic', 'bedrock']);
  });
});
