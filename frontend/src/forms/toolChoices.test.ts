import { describe, expect, it } from 'vitest';
import { namesOf, toggled, toolChoices } from './toolChoices';

const REGISTERED = [
  { name: 'bash', description: 'Run a command', upstream: true },
  { name: 'read', description: 'Read a file', upstream: true },
  { name: 'edit', description: 'Replace a string', upstream: false, note: 'Ours: zenflow’s runner refuses it.' },
];

describe('toolChoices', () => {
  it('offers every registered tool in the server’s order, checked when listed', () => {
    expect(toolChoices(REGISTERED, ['edit', 'bash']).map((c) => [c.name, c.checked, c.known, c.ours])).toEqual([
      ['bash', true, true, false],
      ['read', false, true, false],
      ['edit', true, true, true],
    ]);
  });

  it('keeps listed names the server lacks, checked and marked unknown; submit_result is the engine’s', () => {
    const rows = toolChoices(REGISTERED, ['webfetch', 'read', 'submit_result', 'webfetch']);
    expect(rows.slice(3).map((c) => [c.name, c.checked, c.known])).toEqual([
      ['webfetch', true, false],
      ['submit_result', true, true],
    ]);
  });

  it('does not call names unknown before the server has said what it has', () => {
    expect(toolChoices(null, ['webfetch'])).toEqual([{ name: 'webfetch', description: '', upstream: false, ours: false, note: '', known: true, checked: true }]);
  });

  it('carries the server’s word on why an own tool runs only here', () => {
    expect(toolChoices(REGISTERED, []).map((c) => [c.name, c.note])).toEqual([
      ['bash', ''],
      ['read', ''],
      ['edit', 'Ours: zenflow’s runner refuses it.'],
    ]);
  });
});

describe('toggled', () => {
  it('adds a name last and removes one, keeping the order', () => {
    expect(toggled(['read', 'bash'], 'edit', true)).toEqual(['read', 'bash', 'edit']);
    expect(toggled(['read', 'bash'], 'read', true)).toEqual(['read', 'bash']);
    expect(toggled(['read', 'bash', 'edit'], 'bash', false)).toEqual(['read', 'edit']);
  });

  it('reads only the names of a document value', () => {
    expect(namesOf(['a', 3, null, 'b'])).toEqual(['a', 'b']);
    expect(namesOf('a')).toEqual([]);
  });
});
