import { describe, expect, it } from 'vitest';
import { flightsFrom, flightTitle, nodeKeysFor } from './flights';
import { runEvent } from './testEvents';

describe('message flights', () => {
  it('fly sender to coordinator and coordinator to receiver, only for events after the page opened', () => {
    const events = [
      runEvent('message_sent', { seq: 4, stepId: 'loop-stages.0.worker', data: { id: 'msg-send-1', sender: 'loop-stages.0.worker', to: 'coordinator', text: 'old' } }),
      runEvent('message_sent', { seq: 9, stepId: 'loop-stages.1.worker', data: { id: 'msg-send-3', sender: 'loop-stages.1.worker', to: 'coordinator', text: 'STAGE_2' } }),
      runEvent('coordinator_message', { seq: 10, stepId: 'loop-stages.1.worker', data: { id: 'msg-fwd-4', to: 'loop-stages.1.worker', kind: 'context_update', text: 'Build on it' } }),
      runEvent('agent_inbox_drain', { seq: 11, stepId: 'loop-stages.1.worker', data: { id: 'msg-fwd-4', sender: 'coordinator', text: 'Build on it' } }),
    ];
    const flights = flightsFrom(events, 4);
    expect(flights.map((f) => [f.key, f.from, f.to, f.dropped])).toEqual([
      ['9', 'loop-stages.1.worker', 'coordinator', undefined],
      ['10', 'coordinator', 'loop-stages.1.worker', undefined],
    ]);
    expect(flightTitle(flights[1])).toBe('coordinator → loop-stages.1.worker (context_update)\nBuild on it');
  });

  it('mark a dropped message with its reason in words', () => {
    const [f] = flightsFrom([runEvent('message_dropped', { seq: 3, data: { id: 'msg-fwd-2', sender: 'coordinator', to: 'writer', reason: 'target-terminal', text: 'too late' } })], 0);
    expect(f.dropped).toBe('its step had already finished');
    expect(flightTitle(f)).toBe('coordinator → writer — dropped: its step had already finished\ntoo late');
  });

  it('land on the node that draws a namespaced step', () => {
    expect(nodeKeysFor('loop-stages.1.worker')).toEqual(['loop-stages/worker', 'loop-stages']);
    expect(nodeKeysFor('deploy[0].deploy_step')).toEqual(['deploy/deploy_step', 'deploy']);
    expect(nodeKeysFor('outer.2.inner[3].leaf')).toEqual(['outer/inner', 'outer']);
    expect(nodeKeysFor('batch[7]')).toEqual(['batch']);
    expect(nodeKeysFor('deploy-staging.run-tests')).toEqual(['deploy-staging']);
    expect(nodeKeysFor('worker')).toEqual(['worker']);
    expect(nodeKeysFor('coordinator')).toEqual([]);
  });
});
