import { describe, expect, it } from 'vitest';
import { makeSnippet, nextFreeId, parseSnippet, pasteScope, pasteSnippet, snippetText, topmostKeys, type Snippet } from './clipboard';
import { celStepRefs, renameCelRefsMany } from './ops';
import type { WorkflowDoc } from './types';

const SOURCE: WorkflowDoc = {
  name: 'source',
  agents: { coder: { description: 'Writes code.' }, reviewer: { description: 'Reviews.' }, judge: { description: 'unused' } },
  steps: [
    { id: 'plan', agent: 'coder' },
    { id: 'implement', agent: 'coder', dependsOn: ['plan'] },
    { id: 'review', agent: 'reviewer', dependsOn: ['implement'], condition: "steps.implement.status == 'completed'" },
    {
      id: 'cycle',
      loop: { maxIterations: 2, until: "steps.check.content.contains('OK')", steps: [{ id: 'work' }, { id: 'check', dependsOn: ['work'] }] },
    },
  ],
};

function snippetOf(keys: string[], doc = SOURCE): Snippet {
  const parsed = parseSnippet(snippetText(makeSnippet(doc, keys)));
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.snippet;
}

describe('copying', () => {
  it('takes the selected steps in document order with only the agents they use', () => {
    const s = makeSnippet(SOURCE, ['review', 'implement']);
    expect(s.steps.map((x) => x.id)).toEqual(['implement', 'review']);
    expect(Object.keys(s.agents)).toEqual(['coder', 'reviewer']);
  });

  it('lets a selected loop carry its inner steps instead of copying them twice', () => {
    expect(topmostKeys(SOURCE, ['cycle/work', 'cycle', 'plan'])).toEqual(['plan', 'cycle']);
    expect(makeSnippet(SOURCE, ['cycle', 'cycle/check']).steps).toHaveLength(1);
  });

  it('writes zenflow YAML that reads back, positions relative to the top-left one', () => {
    const s = makeSnippet(SOURCE, ['plan', 'implement'], { plan: { x: 100, y: 50 }, implement: { x: 400, y: 80 }, review: { x: 1, y: 1 } });
    const text = snippetText(s);
    expect(text).toContain('steps:\n');
    expect(text).toContain('agents:\n');
    const back = parseSnippet(text);
    expect('snippet' in back && back.snippet.positions).toEqual({ plan: { x: 0, y: 0 }, implement: { x: 300, y: 30 } });
    expect('snippet' in back && back.snippet.steps).toEqual(s.steps);
  });
});

describe('reading clipboard text', () => {
  it('accepts a fragment, a whole workflow, a bare list and a single step', () => {
    for (const text of ['steps:\n  - id: a\n', 'name: w\nsteps:\n  - id: a\n', '- id: a\n', 'id: a\ninstructions: hi\n']) {
      const r = parseSnippet(text);
      expect('snippet' in r && r.snippet.steps.map((s) => s.id)).toEqual(['a']);
    }
  });

  it('says plainly why other text is not steps', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['hello world', /expected a `steps:` list/],
      ['steps: [a: 1, : : :', /not YAML/],
      ['steps:\n  - id: a\n  - just text\n', /item 2 of the list/],
      ['steps: []', /empty/],
    ];
    for (const [text, why] of cases) {
      const r = parseSnippet(text);
      expect('error' in r && r.error).toMatch(/^The clipboard holds no zenflow steps: /);
      expect('error' in r && r.error).toMatch(why);
    }
  });
});

describe('pasting', () => {
  const TARGET: WorkflowDoc = {
    name: 'target',
    agents: { coder: { description: 'Writes code.' }, reviewer: { description: 'Something else entirely.' } },
    steps: [{ id: 'implement' }, { id: 'review' }],
  };

  it('renames clashing ids and makes dependsOn and CEL among the pasted steps follow', () => {
    const r = pasteSnippet(TARGET, snippetOf(['implement', 'review']));
    expect(r.keys).toEqual(['implement_2', 'review_2']);
    const review = r.doc.steps[3];
    expect(review.dependsOn).toEqual(['implement_2']);
    expect(review.condition).toBe("steps.implement_2.status == 'completed'");
    expect(r.keyMap).toEqual({ implement: 'implement_2', review: 'review_2' });
  });

  it('drops a dependency on a step that did not come along, and says so', () => {
    const r = pasteSnippet(TARGET, snippetOf(['implement']));
    expect(r.doc.steps[2].dependsOn).toBeUndefined();
    expect(r.notices).toContain('Dropped "implement_2" depends on "plan": that step was not pasted.');
  });

  it('reports a condition that reads a step not pasted, keeping the text', () => {
    const r = pasteSnippet(TARGET, snippetOf(['review']));
    expect(r.doc.steps[2].condition).toBe("steps.implement.status == 'completed'");
    expect(r.notices.some((n) => n.includes('condition of "review_2" reads steps.implement'))).toBe(true);
  });

  it('merges an agent defined the same and renames one defined differently', () => {
    const r = pasteSnippet(TARGET, snippetOf(['implement', 'review']));
    expect(Object.keys(r.doc.agents ?? {})).toEqual(['coder', 'reviewer', 'reviewer_2']);
    expect(r.doc.steps[2].agent).toBe('coder');
    expect(r.doc.steps[3].agent).toBe('reviewer_2');
    expect(r.notices).toContain('Agent "reviewer" here is defined differently, so the pasted one is "reviewer_2".');
    // Pasting again reuses the renamed agent rather than adding reviewer_3.
    const again = pasteSnippet(r.doc, snippetOf(['review']));
    expect(Object.keys(again.doc.agents ?? {})).toEqual(['coder', 'reviewer', 'reviewer_2']);
    expect(again.doc.steps[4].agent).toBe('reviewer_2');
  });

  it('names an agent the steps use that neither side defines', () => {
    const r = pasteSnippet({ name: 't', steps: [] }, { steps: [{ id: 'x', agent: 'ghost' }], agents: {}, positions: {} });
    expect(r.notices).toEqual(['Not defined in this workflow: agent "ghost". Add it under Agents.']);
  });

  it('duplicates a loop with its inner steps, whose own references are left alone', () => {
    const r = pasteSnippet(SOURCE, snippetOf(['cycle']));
    const copy = r.doc.steps[4];
    expect(copy.id).toBe('cycle_2');
    expect(copy.loop?.until).toBe("steps.check.content.contains('OK')");
    expect(copy.loop?.steps?.map((s) => s.id)).toEqual(['work', 'check']);
    expect(r.notices).toEqual([]);
    expect(r.keyMap).toEqual({ cycle: 'cycle_2', 'cycle/work': 'cycle_2/work', 'cycle/check': 'cycle_2/check' });
  });

  it('pastes into a loop, but a loop only at the top level', () => {
    const inner = pasteSnippet(SOURCE, snippetOf(['plan']), 'cycle');
    expect(inner.keys).toEqual(['cycle/plan']);
    const loop = pasteSnippet(SOURCE, snippetOf(['cycle']), 'cycle');
    expect(loop.keys).toEqual(['cycle_2']);
    expect(loop.notices[0]).toMatch(/top level/);
  });

  it('never changes the document it is given', () => {
    const before = JSON.stringify(TARGET);
    pasteSnippet(TARGET, snippetOf(['implement', 'review']));
    expect(JSON.stringify(TARGET)).toBe(before);
  });

  it('chooses the selected loop, or the loop of a selected inner step, as where to paste', () => {
    expect(pasteScope(SOURCE, 'cycle')).toBe('cycle');
    expect(pasteScope(SOURCE, 'cycle/work')).toBe('cycle');
    expect(pasteScope(SOURCE, 'plan')).toBe('');
    expect(pasteScope(SOURCE, null)).toBe('');
  });
});

describe('id and CEL helpers', () => {
  it('counts on from a numbered id', () => {
    expect(nextFreeId('a', new Set(['a', 'a_2']))).toBe('a_3');
    expect(nextFreeId('a_2', new Set(['a', 'a_2']))).toBe('a_3');
    expect(nextFreeId('b', new Set(['a']))).toBe('b');
  });

  it('renames several ids at once without chaining them', () => {
    const m = new Map([
      ['x', 'x_2'],
      ['x_2', 'x_3'],
    ]);
    expect(renameCelRefsMany("steps.x.content + steps['x_2'].content", m)).toBe('steps.x_2.content + steps.x_3.content');
  });

  it('finds the steps an expression reads, in both notations', () => {
    expect(celStepRefs("steps.a.content == steps['list-b'].result && steps.a.status")).toEqual(['a', 'list-b']);
  });
});
