import { describe, expect, it, vi } from 'vitest';
import type { WorkflowDoc } from '../../doc/types';
import { buildCommands, filterCommands, stepKeys, type Command, type CommandSources } from './commands';
import { SHORTCUTS, isShortcut } from './shortcuts';

const DOC: WorkflowDoc = {
  name: 'demo',
  agents: { planner: { description: 'Plans.' }, reviewer: { description: 'Reviews.' } },
  steps: [
    { id: 'plan', agent: 'planner', instructions: 'Plan it.' },
    { id: 'dev_cycle', loop: { forEach: '${{ steps.plan.outputs }}', steps: [{ id: 'implement', instructions: 'Do it.' }] } },
    { id: 'restart_check', instructions: 'Check.' },
  ],
};

const KINDS = [
  { kind: 'step', label: 'Step', hint: 'One agent does one task.' },
  { kind: 'forEach', label: 'forEach', hint: 'Runs its steps once per item.' },
  { kind: 'repeat', label: 'Repeat-until', hint: 'Runs its steps until a condition holds.' },
];

function sources(over: Partial<CommandSources> = {}): CommandSources {
  const act = () => ({ run: vi.fn() });
  return {
    doc: DOC,
    kinds: KINDS,
    editDenied: null,
    addNode: vi.fn(),
    goToStep: vi.fn(),
    openAgent: vi.fn(),
    run: act(),
    save: act(),
    exportYaml: act(),
    exportJson: act(),
    copyYaml: act(),
    importFile: act(),
    toggleYaml: { ...act(), shown: false },
    tidy: act(),
    fit: act(),
    undo: act(),
    redo: act(),
    showShortcuts: act(),
    showProblems: act(),
    pieces: {
      copy: act(),
      cut: act(),
      paste: act(),
      duplicate: act(),
      wrapForEach: act(),
      wrapRepeat: act(),
      wrapJudge: act(),
      unwrap: { run: vi.fn(), disabled: 'Select a loop first' },
    },
    ...over,
  };
}

const ids = (cs: Command[]) => cs.map((c) => c.id);

describe('buildCommands', () => {
  it('has a "Go to step" for every step, inner ones by their key, and an "Open agent" for every agent', () => {
    const src = sources();
    const cs = buildCommands(src);
    const titles = cs.map((c) => c.title);
    expect(titles).toContain('Go to step plan');
    expect(titles).toContain('Go to step dev_cycle');
    expect(titles).toContain('Go to step dev_cycle/implement');
    expect(titles).toContain('Open agent planner');
    expect(titles).toContain('Open agent reviewer');
    cs.find((c) => c.id === 'step:dev_cycle/implement')!.run();
    expect(src.goToStep).toHaveBeenCalledWith('dev_cycle/implement');
    cs.find((c) => c.id === 'agent:reviewer')!.run();
    expect(src.openAgent).toHaveBeenCalledWith('reviewer');
  });

  it('adds every node kind it is given, through addNode', () => {
    const src = sources();
    const cs = buildCommands(src);
    expect(ids(cs).filter((id) => id.startsWith('add:'))).toEqual(['add:step', 'add:forEach', 'add:repeat']);
    cs.find((c) => c.id === 'add:forEach')!.run();
    expect(src.addNode).toHaveBeenCalledWith('forEach');
  });

  it('carries why an action cannot be done, and nothing can be added when editing is denied', () => {
    const cs = buildCommands(sources({ run: { run: vi.fn(), disabled: 'Fix 2 errors first' }, editDenied: 'Read only' }));
    expect(cs.find((c) => c.id === 'run')!.disabled).toBe('Fix 2 errors first');
    expect(cs.find((c) => c.id === 'add:step')!.disabled).toBe('Read only');
    expect(cs.find((c) => c.id === 'tidy')!.disabled).toBeNull();
  });

  it('lists no step commands for a document without steps', () => {
    expect(ids(buildCommands(sources({ doc: { name: 'x', steps: [] } }))).some((id) => id.startsWith('step:'))).toBe(false);
  });

  it('shows the shortcut of an action from SHORTCUTS', () => {
    const cs = buildCommands(sources());
    expect(cs.find((c) => c.id === 'save')!.shortcut).toBe('Ctrl+S');
    expect(cs.find((c) => c.id === 'shortcuts')!.shortcut).toBe('?');
  });
});

describe('the commands on pieces of a workflow', () => {
  it('offers copy, cut, paste, duplicate, the three wraps and unwrap, with their keys and why not', () => {
    const src = sources();
    const cs = buildCommands(src);
    expect(ids(cs)).toEqual(expect.arrayContaining(['copy', 'cut', 'paste', 'duplicate', 'wrap:forEach', 'wrap:repeat', 'wrap:judge', 'unwrap']));
    expect(cs.find((c) => c.id === 'duplicate')!.shortcut).toBe('Ctrl+D');
    expect(cs.find((c) => c.id === 'paste')!.shortcut).toBe('Ctrl+V');
    expect(cs.find((c) => c.id === 'unwrap')!.disabled).toBe('Select a loop first');
    cs.find((c) => c.id === 'wrap:judge')!.run();
    expect(src.pieces.wrapJudge.run).toHaveBeenCalled();
    expect(filterCommands(cs, 'judge loop')[0].id).toBe('wrap:judge');
    expect(filterCommands(cs, 'unwrap')[0].id).toBe('unwrap');
  });

  it('recognises Ctrl+D and Cmd+D as duplicate, not Ctrl+Shift+D', () => {
    const ev = (mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }>) => ({ key: 'd', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(isShortcut('duplicate', ev({ ctrlKey: true }))).toBe(true);
    expect(isShortcut('duplicate', ev({ metaKey: true }))).toBe(true);
    expect(isShortcut('duplicate', ev({ ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isShortcut('select-all', { ...ev({ metaKey: true }), key: 'a' })).toBe(true);
    expect(isShortcut('select-all', { ...ev({}), key: 'a' })).toBe(false);
    expect(SHORTCUTS.map((s) => s.keys)).toEqual(expect.arrayContaining(['Ctrl+C', 'Ctrl+X', 'Ctrl+V', 'Ctrl+D', 'Shift+click', 'Shift+drag']));
  });
});

describe('stepKeys', () => {
  it('walks loops in document order', () => {
    expect(stepKeys(DOC).map((s) => s.key)).toEqual(['plan', 'dev_cycle', 'dev_cycle/implement', 'restart_check']);
  });
});

describe('filterCommands', () => {
  const cs = buildCommands(sources());

  it('keeps everything, in order, for an empty query', () => {
    expect(ids(filterCommands(cs, '  '))).toEqual(ids(cs));
  });

  it('puts the node kind first for its name, whatever the case', () => {
    expect(filterCommands(cs, 'forEach')[0].id).toBe('add:forEach');
    expect(filterCommands(cs, 'FOREACH')[0].id).toBe('add:forEach');
  });

  it('finds a step by its id, ahead of a command that only has the word as a keyword', () => {
    expect(filterCommands(cs, 'plan')[0].id).toBe('step:plan');
    expect(filterCommands(cs, 'implement')[0].id).toBe('step:dev_cycle/implement');
    // "restart" holds "start", a keyword of Run: the step's title match ranks first
    expect(filterCommands(cs, 'restart')[0].id).toBe('step:restart_check');
  });

  it('ranks a prefix of the title first', () => {
    const r = ids(filterCommands(cs, 'go to'));
    expect(r.slice(0, 4)).toEqual(['step:plan', 'step:dev_cycle', 'step:dev_cycle/implement', 'step:restart_check']);
    expect(filterCommands(cs, 'tidy')[0].id).toBe('tidy');
  });

  it('matches letters in order (fuzzy) and drops what does not match', () => {
    expect(ids(filterCommands(cs, 'tdy'))).toContain('tidy');
    expect(filterCommands(cs, 'zzzqqq')).toEqual([]);
  });

  it('matches every word of a query across title and keywords', () => {
    expect(filterCommands(cs, 'download json')[0].id).toBe('export:json');
    expect(filterCommands(cs, 'agent reviewer')[0].id).toBe('agent:reviewer');
  });
});

describe('SHORTCUTS', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });

  it('lists Ctrl+K and ?, with unique ids', () => {
    expect(SHORTCUTS.map((s) => s.keys)).toEqual(expect.arrayContaining(['Ctrl+K', '?', 'Ctrl+S']));
    expect(new Set(SHORTCUTS.map((s) => s.id)).size).toBe(SHORTCUTS.length);
  });

  it('recognises Ctrl+K and Cmd+K, not a plain k', () => {
    expect(isShortcut('commands', key('k', { ctrlKey: true }))).toBe(true);
    expect(isShortcut('commands', key('K', { metaKey: true }))).toBe(true);
    expect(isShortcut('commands', key('k'))).toBe(false);
    expect(isShortcut('help', key('?', { shiftKey: true }))).toBe(true);
    expect(isShortcut('undo', key('z', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isShortcut('redo', key('Z', { ctrlKey: true, shiftKey: true }))).toBe(true);
  });
});

describe('finding the problems', () => {
  it('answers "valid" (and "errors") with the problems panel first', () => {
    const src = sources();
    const cs = buildCommands(src);
    for (const q of ['valid', 'errors', 'warnings']) expect(filterCommands(cs, q)[0]?.id).toBe('problems');
    filterCommands(cs, 'valid')[0].run();
    expect(src.showProblems.run).toHaveBeenCalled();
  });
});
