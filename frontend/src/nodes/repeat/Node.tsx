import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { isObject } from '../../doc/types';
import { truncate } from '../../graph/nodeSize';
import { LoopFrame } from '../common/LoopFrame';
import { OutputChip } from '../common/OutputChip';
import { Chip } from '../common/parts';
import { REPEAT_ITEM } from './defaults';
import type { RepeatNode as RepeatNodeType } from './types';

export const RepeatNode = memo(function RepeatNode({ data, selected }: NodeProps<RepeatNodeType>) {
  const loop = isObject(data.step.loop) ? data.step.loop : {};
  const judge = typeof loop.untilAgent === 'string' ? loop.untilAgent : null;
  return (
    <LoopFrame
      data={data}
      selected={selected}
      variant={judge ? 'judge' : 'repeat'}
      label={judge ? 'repeat · judge' : 'repeat-until'}
      icon={REPEAT_ITEM.icon}
      settings={
        <>
          <Chip label="max" value={typeof loop.maxIterations === 'number' ? `${loop.maxIterations}×` : '—'} />
          {typeof loop.until === 'string' && <Chip label="until" value={truncate(loop.until, 34)} title={loop.until} mono />}
          {judge && <Chip label="judge" value={judge} />}
          {typeof loop.delay === 'string' && <Chip label="delay" value={loop.delay} />}
          <OutputChip loopKey={data.key} mode={typeof loop.outputMode === 'string' && loop.outputMode !== '' ? loop.outputMode : 'last'} />
        </>
      }
    />
  );
});
