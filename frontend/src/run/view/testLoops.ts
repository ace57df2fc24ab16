// A view's loop for tests: an empty forEach of `each`, changed by `more`.
import type { ViewLoop } from './merge';

export function viewLoop(more: Partial<ViewLoop> = {}): ViewLoop {
  return {
    id: 'each',
    type: 'forEach',
    total: 100,
    counts: {},
    tokens: 0,
    started: null,
    ended: null,
    running: [],
    running_count: 0,
    failed: [],
    recent: [],
    verdicts: [],
    output: '',
    output_truncated: false,
    rounds_completed: null,
    break_reason: null,
    ...more,
  };
}
