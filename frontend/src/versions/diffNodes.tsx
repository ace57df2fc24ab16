// The node kinds of the registry, each wrapped to say what happened to its step: a badge in words
// ("+ added", "~ changed", "− removed") and `data-diff` on the frame the stylesheet and tests read.
import { memo, type ComponentType } from 'react';
import type { NodeProps, NodeTypes } from '@xyflow/react';
import { nodeTypes } from '../nodes/registry';
import type { DiffNode } from './diffGraph';

const BADGE = { added: '+ added', removed: '− removed', changed: '~ changed', unchanged: '' } as const;

export function badgeText(data: DiffNode['data']): string {
  if (data.diff !== 'unchanged') return BADGE[data.diff];
  return data.inside ? `${data.inside} change${data.inside === 1 ? '' : 's'} inside` : '';
}

function withDiff(Inner: ComponentType<NodeProps<DiffNode>>) {
  return memo(function DiffNodeView(props: NodeProps<DiffNode>) {
    const { diff, changes, key } = props.data;
    const badge = badgeText(props.data);
    return (
      <div className={`diff-node diff-node-${diff}`} data-diff={diff} data-key={key} title={changes ? `Changed: ${changes}` : undefined}>
        <Inner {...props} />
        {badge && (
          <span className={`diff-badge diff-badge-${diff}`} data-testid="diff-badge">
            {badge}
          </span>
        )}
      </div>
    );
  });
}

export const diffNodeTypes: NodeTypes = Object.fromEntries(
  Object.entries(nodeTypes).map(([kind, Node]) => [kind, withDiff(Node as ComponentType<NodeProps<DiffNode>>)]),
);
