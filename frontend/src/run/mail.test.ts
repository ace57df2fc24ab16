import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../api/events.gen';
import { dropWords, emptyMailLog, foldMailEvents, laneItems, searchMessages, stateWords } from './mail';
import { emptyRun, reduceEvents } from './reduce';
import { runEvent } from './testEvents';

// The round trip of upstream's loop-bidirectional.yaml, as runtime/engine/mail.py and runtime/coordinator emit it.
function roundTrip(): RunEvent[] {
  return [
    runEvent('message_sent', { seq: 1, stepId: 'loop-stages.0.worker', data: { id: 'msg-send-1', sender: 'loop-stages.0.worker', to: 'coordinator', text: 'STAGE_1: done' } }),
    runEvent('coordinator_inbox_message', { seq: 2, stepId: 'loop-stages.0.worker', data: { source: 'message', sender: 'loop-stages.0.worker', id: 'msg-send-1', text: 'STAGE_1: done', cycle: 1 } }),
    runEvent('coordinator_narration', { seq: 3, agent: 'coordinator', data: { text: 'Stage 1 is done.', cycle: 1 } }),
    runEvent('coordinator_message', {
      seq: 4,
      stepId: 'loop-stages.1.worker',
      data: { id: 'msg-fwd-2', sender: 'coordinator', to: 'loop-stages.1.worker', kind: 'context_update', text: 'Build on <b>stage 1</b>.' },
    }),
    runEvent('agent_inbox_drain', { seq: 5, stepId: 'loop-stages.1.worker', data: { id: 'msg-fwd-2', sender: 'coordinator', kind: 'context_update', text: 'Build on <b>stage 1</b>.', turn: 2 } }),
    // A forward to an id no running step has: never queued, dropped at once.
    runEvent('message_dropped', { seq: 6, data: { id: 'msg-fwd-3', sender: 'coordinator', to: 'nowhere', reason: 'unknown-step', text: 'hello?' } }),
    // A message queued for a step that finished before reading it.
    runEvent('coordinator_message', { seq: 7, stepId: 'loop-stages.2.worker', data: { id: 'msg-fwd-4', to: 'loop-stages.2.worker', text: 'late' } }),
    runEvent('message_dropped', { seq: 8, stepId: 'loop-stages.2.worker', data: { id: 'msg-fwd-4', sender: 'coordinator', to: 'loop-stages.2.worker', reason: 'target-terminal', text: 'late' } }),
    runEvent('coordinator_narration', { seq: 9, agent: 'coordinator', data: { text: 'kept', cycle: 2, rejected_target: 'loop-stages' } }),
    runEvent('coordinator_synthesis', { seq: 10, agent: 'coordinator', data: { summary: 'First try.', source: 'finalize' } }),
    runEvent('coordinator_synthesis', { seq: 11, agent: 'coordinator', data: { summary: 'Three stages ran.', source: 'finalize' } }),
  ];
}

describe('the mail fold', () => {
  it('follows every message from sent to read or dropped, with the reason', () => {
    const log = foldMailEvents(emptyMailLog(), roundTrip());
    expect(log.messages.map((m) => [m.id, m.sender, m.to, m.state, m.reason])).toEqual([
      ['msg-send-1', 'loop-stages.0.worker', 'coordinator', 'drained', undefined],
      ['msg-fwd-2', 'coordinator', 'loop-stages.1.worker', 'drained', undefined],
      ['msg-fwd-3', 'coordinator', 'nowhere', 'dropped', 'unknown-step'],
      ['msg-fwd-4', 'coordinator', 'loop-stages.2.worker', 'dropped', 'target-terminal'],
    ]);
    const forwarded = log.messages[1];
    expect(forwarded.kind).toBe('context_update');
    expect(forwarded.text).toBe('Build on <b>stage 1</b>.'); // kept as text: the page renders it as text
    expect(stateWords(forwarded)).toBe('read by loop-stages.1.worker at turn 2');
    expect(stateWords(log.messages[3])).toBe('dropped: its step had already finished');
  });

  it('keeps the narration in order, the last synthesis, and lists the lane by seq', () => {
    const log = foldMailEvents(emptyMailLog(), roundTrip());
    expect(log.narration.map((n) => n.text)).toEqual(['Stage 1 is done.', 'kept']);
    expect(log.narration[1].rejectedTarget).toBe('loop-stages');
    expect(log.synthesis?.summary).toBe('Three stages ran.');
    expect(laneItems(log).map((i) => (i.kind === 'narration' ? i.narration.text : `→ ${i.message.to}`))).toEqual([
      'Stage 1 is done.',
      '→ loop-stages.1.worker',
      '→ nowhere',
      '→ loop-stages.2.worker',
      'kept',
    ]);
  });

  it('is folded by the run reducer, once per event, and other events leave it as it was', () => {
    const events = roundTrip();
    const once = reduceEvents(emptyRun(), events);
    const again = reduceEvents(once, events); // a reconnect's replay
    expect(again.mail.messages).toHaveLength(4);
    const plain = reduceEvents(once, [runEvent('step_start', { seq: 12, stepId: 'other' })]);
    expect(plain.mail).toBe(once.mail);
  });

  it('searches every field, the reason in words among them', () => {
    const { messages } = foldMailEvents(emptyMailLog(), roundTrip());
    expect(searchMessages(messages, 'LOOP-STAGES.1').map((m) => m.id)).toEqual(['msg-fwd-2']);
    expect(searchMessages(messages, 'already finished').map((m) => m.id)).toEqual(['msg-fwd-4']);
    expect(searchMessages(messages, 'unknown-step').map((m) => m.id)).toEqual(['msg-fwd-3']);
    expect(searchMessages(messages, 'context_update').map((m) => m.id)).toEqual(['msg-fwd-2']);
    expect(searchMessages(messages, '  ')).toHaveLength(4);
    expect(searchMessages(messages, 'no such thing')).toEqual([]);
  });

  it('says every drop reason in words, and an unknown one as it came', () => {
    expect(dropWords('workflow-cancelled')).toBe('the run was stopped');
    expect(dropWords('max-wake-cycles')).toBe('the coordinator had reached its wake-cycle cap');
    expect(dropWords('a-newer-reason')).toBe('a-newer-reason');
  });

  it('says when the coordinator reached its wake-cycle cap', () => {
    const log = foldMailEvents(emptyMailLog(), [runEvent('max_wake_cycles_warning', { seq: 1, message: 'the coordinator reached its 100 wake cycles', data: { limit: 100, dropped: 2 } })]);
    expect(log.warning).toBe('the coordinator reached its 100 wake cycles');
  });
});
