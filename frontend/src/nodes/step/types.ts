import type { FlowNode } from '../../graph/mapping';

export type StepNode = FlowNode & { type: 'step' };
