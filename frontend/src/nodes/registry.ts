// The one registry of node kinds, built once at module scope: what each kind
// draws on the canvas (Node), edits in the inspector (Panel) and adds from
// the palette. Adding a kind is a folder under nodes/ and one entry here.
import type { ComponentType } from 'react';
import type { NodeTypes } from '@xyflow/react';
import type { NodeKind } from '../graph/mapping';
import { FOR_EACH_ITEM } from './forEach/defaults';
import { ForEachNode } from './forEach/Node';
import { ForEachPanel } from './forEach/Panel';
import { INCLUDE_ITEM } from './include/defaults';
import { IncludeNode } from './include/Node';
import { IncludePanel } from './include/Panel';
import { JUDGE_ITEM, REPEAT_ITEM } from './repeat/defaults';
import { RepeatNode } from './repeat/Node';
import { RepeatPanel } from './repeat/Panel';
import { STEP_ITEM } from './step/defaults';
import { StepNode } from './step/Node';
import { StepPanel } from './step/Panel';
import type { PaletteItem, PanelProps } from './types';

export interface NodeKindSpec {
  Node: NodeTypes[string];
  Panel: ComponentType<PanelProps>;
  /** Palette entries, in palette order (the judge loop is a repeat-until loop). */
  palette: readonly PaletteItem[];
}

export const NODE_KINDS: Record<NodeKind, NodeKindSpec> = {
  step: { Node: StepNode, Panel: StepPanel, palette: [STEP_ITEM] },
  forEach: { Node: ForEachNode, Panel: ForEachPanel, palette: [FOR_EACH_ITEM] },
  repeat: { Node: RepeatNode, Panel: RepeatPanel, palette: [REPEAT_ITEM, JUDGE_ITEM] },
  include: { Node: IncludeNode, Panel: IncludePanel, palette: [INCLUDE_ITEM] },
};

export const nodeTypes: NodeTypes = Object.fromEntries(Object.entries(NODE_KINDS).map(([kind, spec]) => [kind, spec.Node]));

export const PALETTE: readonly PaletteItem[] = Object.values(NODE_KINDS).flatMap((spec) => spec.palette);

export function paletteItem(kind: string): PaletteItem | undefined {
  return PALETTE.find((item) => item.kind === kind);
}
