import type { FlowNode } from '../../graph/mapping';

export type ForEachNode = FlowNode & { type: 'forEach' };
