// Where pasted, wrapped and unwrapped steps go on the canvas: positions only,
// the document is not touched. Pure.
import { parentKey, SCOPE_SEP } from '../doc/keys';
import type { Layout, Position, Step, WorkflowDoc } from '../doc/types';
import { documentToGraph, LOOP_HEADER, LOOP_PAD, ranks, STEP_W, stepHeight } from '../graph/mapping';

/** How far a paste moves off an exact copy below it, like a duplicate in Figma. */
export const PASTE_OFFSET = 40;
const COLUMN = STEP_W + 80;
const ROW = 160;

function same(a: Position, b: Position): boolean {
  return Math.abs(a.x - b.x) < 4 && Math.abs(a.y - b.y) < 4;
}

/**
 * Positions of pasted steps: the arrangement they were copied in (`relative`, by key in the snippet),
 * from `origin`; steps that came without one (YAML from elsewhere) in columns by dependency rank. Moved
 * down and right while any would sit exactly on a step already there.
 */
export function placePasted(
  layout: Layout,
  keyMap: Record<string, string>,
  relative: Record<string, Position>,
  steps: Step[],
  origin: Position,
): Layout {
  const positions = { ...layout.positions };
  const top = Object.entries(keyMap).filter(([from]) => !from.includes(SCOPE_SEP));
  const rank = ranks(steps);
  const rows = new Map<number, number>();
  const placed: [string, Position][] = top.map(([from, to], i) => {
    const rel = relative[from];
    if (rel) return [to, { x: origin.x + rel.x, y: origin.y + rel.y }];
    const row = rows.get(rank[i] ?? 0) ?? 0;
    rows.set(rank[i] ?? 0, row + 1);
    return [to, { x: origin.x + (rank[i] ?? 0) * COLUMN, y: origin.y + row * ROW }];
  });
  const scope = top.length ? parentKey(top[0][1]) : '';
  const others = Object.entries(layout.positions)
    .filter(([k]) => parentKey(k) === scope)
    .map(([, p]) => p);
  let shift = 0;
  for (let tries = 0; tries < 50 && placed.some(([, p]) => others.some((o) => same(o, { x: p.x + shift, y: p.y + shift }))); tries++) {
    shift += PASTE_OFFSET;
  }
  for (const [key, p] of placed) positions[key] = { x: Math.round(p.x + shift), y: Math.round(p.y + shift) };
  // Inner steps of a pasted loop keep their places inside it.
  for (const [from, to] of Object.entries(keyMap)) {
    if (from.includes(SCOPE_SEP) && relative[from]) positions[to] = relative[from];
  }
  return { version: 1, positions };
}

/** Moves positions from old keys to new ones; `shift(key, p)` says where each lands. */
function remap(layout: Layout, keyMap: Record<string, string>, shift: (oldKey: string, p: Position) => Position, drop: string[] = []): Layout {
  const positions: Layout['positions'] = {};
  const moved = new Set(Object.keys(keyMap));
  for (const [k, p] of Object.entries(layout.positions)) {
    if (drop.some((d) => k === d || k.startsWith(d + SCOPE_SEP))) continue;
    if (!moved.has(k)) positions[k] = p;
  }
  for (const [from, to] of Object.entries(keyMap)) {
    const p = layout.positions[from];
    if (p) positions[to] = shift(from, p);
  }
  return { version: 1, positions };
}

/** After a wrap: the loop's frame around where the steps were, the steps at the same places inside it. */
export function placeWrapped(layout: Layout, keyMap: Record<string, string>, loopKey: string): Layout {
  const at = Object.keys(keyMap)
    .map((k) => layout.positions[k])
    .filter((p): p is Position => !!p);
  if (at.length === 0) return remap(layout, keyMap, (_k, p) => p);
  const loop = { x: Math.min(...at.map((p) => p.x)) - LOOP_PAD, y: Math.min(...at.map((p) => p.y)) - LOOP_HEADER };
  const next = remap(layout, keyMap, (_k, p) => ({ x: p.x - loop.x, y: p.y - loop.y }));
  next.positions[loopKey] = loop;
  return next;
}

/** After an unwrap: the steps where they were drawn inside the loop, the loop gone. */
export function placeUnwrapped(layout: Layout, keyMap: Record<string, string>, loopKey: string): Layout {
  const loop = layout.positions[loopKey] ?? { x: 0, y: 0 };
  return remap(layout, keyMap, (_k, p) => ({ x: p.x + loop.x, y: p.y + loop.y }), [loopKey]);
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Room kept between a paste and the steps around it (node heights are estimates, the drawn ones vary a little). */
const CLEARANCE = 24;

function overlaps(a: Box, b: Box): boolean {
  const m = CLEARANCE;
  return a.x < b.x + b.w + m && b.x < a.x + a.w + m && a.y < b.y + b.h + m && b.y < a.y + a.h + m;
}

/**
 * Moves the steps `keys` (of one scope) down together until none of them covers another step of their
 * scope: a paste lands near where it was asked for, but never hides what was there.
 */
export function clearOfOthers(doc: WorkflowDoc, layout: Layout, keys: readonly string[]): Layout {
  if (keys.length === 0) return layout;
  const graph = documentToGraph(doc, layout);
  if (graph.unmapped) return layout;
  const moving = new Set(keys);
  const scope = parentKey(keys[0]);
  const boxOf = (n: (typeof graph.nodes)[number]): Box => ({
    x: n.position.x,
    y: n.position.y,
    w: n.width ?? STEP_W,
    h: n.height ?? stepHeight(n.data.step, n.data.kind),
  });
  const mine = graph.nodes.filter((n) => moving.has(n.id)).map(boxOf);
  const others = graph.nodes.filter((n) => n.data.scope === scope && !moving.has(n.id)).map(boxOf);
  let dy = 0;
  const hit = () => mine.some((m) => others.some((o) => overlaps({ ...m, y: m.y + dy }, o)));
  for (let tries = 0; tries < 200 && hit(); tries++) dy += PASTE_OFFSET;
  if (dy === 0) return layout;
  const positions = { ...layout.positions };
  for (const n of graph.nodes) if (moving.has(n.id)) positions[n.id] = { x: n.position.x, y: n.position.y + dy };
  return { version: 1, positions };
}
