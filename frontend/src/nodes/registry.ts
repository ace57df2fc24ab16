// The one registry of node types, built once at module scope.
import type { NodeTypes } from '@xyflow/react';
import type { NodeKind } from '../graph/mapping';
import { ForEachNode } from './forEach/Node';
import { IncludeNode } from './include/Node';
import { RepeatNode } from './repeat/Node';
import { StepNode } from './step/Node';

const registry: Record<NodeKind, NodeTypes[string]> = {
  step: StepNode,
  include: IncludeNode,
  forEach: ForEachNode,
  repeat: RepeatNode,
};

export const nodeTypes: NodeTypes = registry;
