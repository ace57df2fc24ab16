import type { FlowNode } from '../../graph/mapping';

export type IncludeNode = FlowNode & { type: 'include' };
