// What a step or include node draws, and how tall that is: one place for the
// node components (which render these chips) and the auto-layout (which needs
// the height before anything is drawn). Numbers follow styles.css (.node-step).
import type { Step } from '../doc/types';

export interface ChipSpec {
  label: string;
  value: string;
  title?: string;
  mono?: boolean;
}

export function truncate(text: string, n: number): string {
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}

/** The chips a step or include node shows for its settings (not its run status). */
export function stepChips(step: Step, kind: 'step' | 'include'): ChipSpec[] {
  const chips: ChipSpec[] = [];
  if (kind === 'step' && typeof step.condition === 'string') chips.push({ label: 'if', value: truncate(step.condition, 28), title: step.condition, mono: true });
  if (typeof step.timeout === 'string') chips.push({ label: 'timeout', value: step.timeout });
  if (typeof step.retries === 'number' && step.retries > 0) chips.push({ label: 'retries', value: String(step.retries) });
  return chips;
}

export const NODE_W = 240;
export const NODE_MIN_H = 96;
const INNER_W = NODE_W - 2 * 12 - 2; // padding and border
const FRAME = 2 + 2 * 10; // border and padding
const HEAD = 20;
const SUB = 6 + 18.2; // margin and one line of 12.5 px text
const TEXT_LINE = 17.4; // 12 px text, line-height 1.45
const CHIP_H = 20;
const CHIP_GAP = 4;
const CHIPS_TOP = 6;
/** Rough text widths (px per character) of the chip fonts. */
const SANS = 6.4;
const MONO = 6.7;

function chipWidth(c: ChipSpec): number {
  const w = 12 + c.label.length * SANS + 4 + c.value.length * (c.mono ? MONO : SANS);
  return Math.min(INNER_W, w);
}

/** Rows of chips once they wrap in the node's width. */
export function chipRows(chips: readonly ChipSpec[]): number {
  let rows = 0;
  let used = 0;
  for (const c of chips) {
    const w = chipWidth(c);
    if (rows === 0 || used + CHIP_GAP + w > INNER_W) {
      rows++;
      used = w;
    } else used += CHIP_GAP + w;
  }
  return rows;
}

/** Lines of the (clamped) description text under the node's title. */
function textLines(text: string | null, mono: boolean): number {
  if (text === null) return 0;
  const perLine = Math.floor(INNER_W / (mono ? MONO : 6.3));
  return Math.min(2, Math.max(1, Math.ceil(text.length / perLine)));
}

/**
 * The height a step or include node is drawn at, from what it shows:
 * instructions (up to two lines), and its chips, which wrap into rows.
 * `extraChips` counts chips shown beside them (a run status).
 */
export function stepNodeHeight(step: Step, kind: 'step' | 'include', extraChips: ChipSpec[] = []): number {
  const text = kind === 'include' ? 'file path' : typeof step.instructions === 'string' ? truncate(step.instructions, 90) : null;
  const lines = textLines(text, kind === 'include');
  const rows = chipRows([...stepChips(step, kind), ...extraChips]);
  const h = FRAME + HEAD + SUB + (lines ? 4 + lines * TEXT_LINE : 0) + (rows ? CHIPS_TOP + rows * CHIP_H + (rows - 1) * CHIP_GAP : 0);
  return Math.max(NODE_MIN_H, Math.ceil(h));
}
