// Run events for tests: the contract's (api/events.gen.ts), each checked against its type's fields.
import type { EventType, RunEvent, RunEventOf } from '../api/events.gen';

export const TEST_TIME = '2026-11-22T02:00:00.000Z';

/** An event of `type` with `fields` (its `data` checked against that type's); timestamp and runId filled in when absent. */
export function runEvent<T extends EventType>(type: T, fields: { seq: number } & Partial<RunEventOf<T>>): RunEventOf<T> {
  // TypeScript cannot tie a generic `type` to its member of the union: this one cast is what the tests build on.
  return { timestamp: TEST_TIME, runId: 'r1', ...fields, type } as RunEventOf<T>;
}

/** What no type of the contract is (a newer server's, or an older run's): the folds must pass it over. */
export function foreignEvent(fields: { type: string; seq: number; [key: string]: unknown }): RunEvent {
  return { timestamp: TEST_TIME, runId: 'r1', ...fields } as unknown as RunEvent;
}
