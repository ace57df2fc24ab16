import type { FlowNode } from '../../graph/mapping';

export type RepeatNode = FlowNode & { type: 'repeat' };
