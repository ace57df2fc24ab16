// What a screen reader says for the canvas's nodes: a node's full name, the
// keys it answers to, and the words and glyphs that carry a run's states (so
// that no state is told by colour alone). Pure. (Edge names and the ids that
// join a node's frame to these words are the graph mapping's.)
import type { Json, Step } from '../../doc/types';
import type { NodeKind } from '../../graph/mapping';

/** What a node's name is made of: the node data the graph mapping gives every node. */
export interface NameFacts {
  kind: NodeKind;
  /** The step, its `loop.steps` emptied (the child count says how many there are). */
  step: Step;
  /** The enclosing loop's key, '' at the top level. */
  scope: string;
  hasInnerSteps: boolean;
  childCount: number;
}

/** What changes while the editor is open: the server's findings and a run's status. */
export interface NodeState {
  errors?: number;
  warnings?: number;
  /** The status a run view shows (running, paused, completed, failed, ...). */
  status?: string;
  /** The step's duration in a run, as the engine gives it ("1.2s"). */
  duration?: string;
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1 problem", "2 problems". */
export function countWords(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function idOf(step: Step): string {
  return typeof step.id === 'string' && step.id !== '' ? step.id : '(no id)';
}

/** What kind of node, and what runs in it: "repeat-until loop refine, 2 inner steps, judge critic". */
function kindWords(f: NameFacts): string[] {
  const id = idOf(f.step);
  const loop = f.step.loop !== null && typeof f.step.loop === 'object' && !Array.isArray(f.step.loop) ? f.step.loop : {};
  const inner = f.hasInnerSteps && f.childCount > 0 ? countWords(f.childCount, 'inner step') : 'single step';
  switch (f.kind) {
    case 'repeat': {
      const words = [`repeat-until loop ${id}`, inner];
      if (typeof loop.untilAgent === 'string') words.push(`judge ${loop.untilAgent}`);
      if (typeof loop.until === 'string' && loop.until.trim() !== '') words.push('until a condition');
      return words;
    }
    case 'forEach': {
      const items = loop.forEach;
      const over = Array.isArray(items) ? `over ${countWords(items.length, 'item')}` : typeof items === 'string' ? `over ${items}` : 'over no items';
      return [`forEach loop ${id}`, over, inner];
    }
    case 'include':
      return [`include ${id}`, typeof f.step.include === 'string' ? `runs ${f.step.include}` : 'runs nothing yet'];
    default:
      return [`step ${id}`];
  }
}

/**
 * A node's name: kind and id first (what the user looks for), then where it
 * is, what it waits for, and its state. "step review in refine, depends on
 * draft, 2 problems". Without a state it is the name the graph gives the node.
 */
export function nodeName(f: NameFacts, state: NodeState = {}): string {
  const [head, ...rest] = kindWords(f);
  const words = [f.scope ? `${head} in ${f.scope}` : head, ...rest];
  const deps = Array.isArray(f.step.dependsOn) ? f.step.dependsOn.filter((d): d is string => typeof d === 'string') : [];
  if (deps.length > 0) words.push(`depends on ${listWords(deps)}`);
  if (state.errors) words.push(countWords(state.errors, 'problem'));
  if (state.warnings) words.push(countWords(state.warnings, 'warning'));
  if (state.status) words.push(state.duration ? `${state.status} in ${state.duration}` : state.status);
  return words.join(', ');
}

/** The keys a focused node answers to (the canvas's own keyboard), said after its name. */
export function nodeKeysHint(readOnly: boolean): string {
  return readOnly
    ? 'Enter shows its details. Arrow keys go to the nearest step.'
    : 'Enter opens it in the inspector. Delete removes it. Arrow keys go to the nearest step.';
}

/** A run state as a glyph beside its colour. */
const STATUS_GLYPHS: Record<string, string> = {
  pending: '○',
  running: '▸',
  paused: '‖',
  completed: '✓',
  failed: '✕',
  cancelled: '⊘',
  skipped: '↷',
};

export function statusGlyph(status: string): string {
  return Object.prototype.hasOwnProperty.call(STATUS_GLYPHS, status) ? STATUS_GLYPHS[status] : '?';
}

/** A judge's verdict on one iteration. */
export interface VerdictFacts {
  done: boolean | null;
  reason: string | null;
  failedOpen: boolean;
}

export function verdictWords(v: VerdictFacts): string {
  const said = v.failedOpen ? 'judge failed open' : v.done ? 'judge said done' : 'judge said not done';
  return `${said}${v.reason ? ` (${v.reason})` : ''}`;
}

/** The mark of a round its judge said was done: not ✓, which every finished iteration shows. */
export const JUDGE_DONE_GLYPH = '⚑';

/**
 * The one glyph an iteration cell shows. ✓ means one thing in every loop, "finished"; a judged round shows
 * the verdict instead (⚑ judge said done, ↻ judge said not done: again, ⚠ the judge failed open). The
 * cell's words say which.
 */
export function iterationGlyph(status: string, verdict?: VerdictFacts): string {
  if (verdict && status === 'completed') return verdict.failedOpen ? '⚠' : verdict.done ? JUDGE_DONE_GLYPH : '↻';
  return statusGlyph(status);
}

/** An iteration cell's words: "Round 2, completed in 1.2s, judge said not done (too thin)", "Item 3, item "b", running". */
export function iterationWords(it: { n: number; kind?: 'round' | 'item'; status: string; item?: Json; time?: string; verdict?: VerdictFacts }): string {
  const words = [`${it.kind === 'item' ? 'Item' : 'Round'} ${it.n}`];
  if (it.item !== undefined) words.push(`value ${JSON.stringify(it.item)}`);
  words.push(it.time ? `${it.status} in ${it.time}` : it.status);
  if (it.verdict) words.push(verdictWords(it.verdict));
  return words.join(', ');
}
