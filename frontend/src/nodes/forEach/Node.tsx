import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { isObject } from '../../doc/types';
import { truncate } from '../../graph/nodeSize';
import { LoopFrame } from '../common/LoopFrame';
import { OutputChip } from '../common/OutputChip';
import { Chip } from '../common/parts';
import { FOR_EACH_ITEM } from './defaults';
import type { ForEachNode as ForEachNodeType } from './types';

export const ForEachNode = memo(function ForEachNode({ data, selected }: NodeProps<ForEachNodeType>) {
  const loop = isObject(data.step.loop) ? data.step.loop : {};
  const items = loop.forEach;
  const source = Array.isArray(items) ? `${items.length} item${items.length === 1 ? '' : 's'}` : typeof items === 'string' ? items : '—';
  return (
    <LoopFrame
      data={data}
      selected={selected}
      variant="forEach"
      label="forEach"
      icon={FOR_EACH_ITEM.icon}
      settings={
        <>
          <Chip label={Array.isArray(items) ? 'items' : 'over'} value={truncate(source, 40)} mono={!Array.isArray(items)} title={JSON.stringify(items)} />
          <Chip label="concurrency" value={typeof loop.maxConcurrency === 'number' && loop.maxConcurrency > 0 ? loop.maxConcurrency : 'all'} />
          <OutputChip loopKey={data.key} mode={typeof loop.outputMode === 'string' && loop.outputMode !== '' ? loop.outputMode : 'last'} />
        </>
      }
    />
  );
});
