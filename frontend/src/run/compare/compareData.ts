// The comparison the server sends (GET /runs/{a}/compare/{b}, runtime/runs/compare.py) and how its rows read.
import { diffWordsWithSpace } from 'diff';
import type { CompareOut, CompareRowOut, CompareUnitOut } from '../../api/openapi.gen';
import type { Narrowed, Run } from '../../api/types';
import { formatIterationId, iterationName } from '../labels';

/**
 * What one run did at one step or iteration. Override: the server declares `output` and `done` any value; they are
 * the step's output text and the judge's verdict (runtime/runs/compare.py), null where there is none.
 */
export type Unit = Narrowed<CompareUnitOut, { output: string | null; done: boolean | null }>;

/** The structure of a row's key (runtime.contract.locate): its keys are left out, never null. */
export type Where = {
  loop?: string;
  iteration?: number;
  item?: number;
  inner?: string;
  include?: string;
};

/** A row; `differs`: the fields the runs disagree on here ("missing": one run never got here). Override: `where` is an open dict there. */
export type CompareRow = Narrowed<CompareRowOut, { where: Where; a: Unit | null; b: Unit | null }>;

/** GET /runs/{a}/compare/{b}. Override: the runs and rows as narrowed here and in types.ts. */
export type RunComparison = Narrowed<CompareOut, { a: Run; b: Run; rows: CompareRow[] }>;

/** "dev · round 2 · draft", "each · item 4", "deploy › build": the format's ids in words (1-based; the row's key is the id). */
export function rowLabel(row: Pick<CompareRow, 'key' | 'where'>): string {
  const w = row.where;
  if (w.include) return `${w.include} › ${w.inner ?? ''}`;
  if (!w.loop) return row.key;
  const place = w.iteration !== undefined ? iterationName('round', w.iteration) : iterationName('item', w.item ?? 0);
  return [w.loop, place, w.inner].filter(Boolean).join(' · ');
}

/** Whether the row's words differ from its key, so that the key is worth showing beside them. */
export function showsKey(row: Pick<CompareRow, 'key' | 'where'>): boolean {
  return rowLabel(row) !== row.key;
}

/** The fork of the two, and the row it began at (`write.3`, `each[1]`, `plan`); null when neither is the other's fork. */
type ForkSide = { id: string; parent?: string | null; fork_point?: { step?: unknown; iteration?: unknown; kind?: unknown; [more: string]: unknown } | null };

export function forkStart(a: ForkSide, b: ForkSide): { side: 'A' | 'B'; key: string } | null {
  const [side, fork] = b.parent === a.id ? (['B', b] as const) : a.parent === b.id ? (['A', a] as const) : [null, null];
  const point = fork?.fork_point;
  if (!side || !point || typeof point.step !== 'string') return null;
  if (typeof point.iteration !== 'number') return { side, key: point.step };
  return { side, key: formatIterationId(point.step, point.iteration, point.kind === 'item' ? 'item' : 'round') };
}

/** Rows whose figures differ though the runs agree there (tokens or cost): the summary never calls them the same. */
export function figuresDiffer(row: Pick<CompareRow, 'a' | 'b' | 'differs'>): boolean {
  if (row.differs.length || !row.a || !row.b) return false;
  return row.a.tokens !== row.b.tokens || row.a.cost_usd !== row.b.cost_usd;
}

const FIELD_WORDS: Record<string, string> = {
  missing: 'only one run got here',
  status: 'status',
  output: 'output',
  result: 'structured result',
  done: 'judge verdict',
};

/** "judge verdict and output differ". */
export function differenceWords(fields: string[]): string {
  const words = fields.map((f) => FIELD_WORDS[f] ?? f);
  if (words.length === 1 && fields[0] === 'missing') return words[0];
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0];
  return `${list} ${words.length > 1 ? 'differ' : 'differs'}`;
}

export interface Segment {
  text: string;
  kind: 'same' | 'removed' | 'added';
}

/** Beyond this many characters a side, only the start is compared: a word diff is quadratic at worst. */
export const DIFF_CHARS = 20_000;

/** A word diff of two outputs (what only A has: removed; only B: added), and whether it was cut. */
export function wordDiff(a: string, b: string): { segments: Segment[]; cut: boolean } {
  const cut = a.length > DIFF_CHARS || b.length > DIFF_CHARS;
  const parts = diffWordsWithSpace(a.slice(0, DIFF_CHARS), b.slice(0, DIFF_CHARS));
  return {
    segments: parts.map((p) => ({ text: p.value, kind: p.added ? 'added' : p.removed ? 'removed' : 'same' })),
    cut,
  };
}

/** The verdict in words, never by colour alone. */
/** What a person changed at a breakpoint, in words: "edited: previous output, context file notes_v2.md". */
export function editedWords(edited: string[]): string {
  if (edited.includes('skipped')) return 'skipped at a breakpoint';
  const words = edited.map((f) => (f.startsWith('context_file:') ? `context file ${f.slice('context_file:'.length)}` : f.replace(/_/g, ' ')));
  return `edited: ${words.join(', ')}`;
}

export function verdictWords(unit: Unit | null): string | null {
  if (!unit || unit.done === null || unit.done === undefined) return null;
  return unit.done ? 'judge said done' : 'judge said not done';
}

/** Text of an output or a structured result, for the diff. */
export function outputText(unit: Unit | null): string {
  if (!unit) return '';
  if (unit.output) return unit.output;
  return unit.result === null || unit.result === undefined ? '' : JSON.stringify(unit.result, null, 2);
}
