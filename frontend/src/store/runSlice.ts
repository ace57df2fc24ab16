// The run shown on the canvas: its record and its events (folded by
// run/reduce), and when it was paused, for the clock in the run view.
import { shownStatus } from '../run/labels';
import { emptyRun, reduceEvents } from '../run/reduce';
import type { EditorState, GetEditor, PauseClock, RunSlice, SetEditor } from './types';

const NOT_PAUSED: PauseClock = { at: null, total: 0 };

function isPaused(s: Pick<EditorState, 'run' | 'runState'>): boolean {
  return shownStatus(s.run, s.runState).status === 'paused';
}

/** The clock after the shown status became `paused` (or not) at `now`. */
export function nextPauseClock(clock: PauseClock, paused: boolean, now: number): PauseClock {
  if (paused && clock.at === null) return { at: now, total: clock.total };
  if (!paused && clock.at !== null) return { at: null, total: clock.total + now - clock.at };
  return clock;
}

export function createRunSlice(set: SetEditor, get: GetEditor): RunSlice {
  /** Applies a change of the run record or state, and times a pause it starts or ends. */
  const update = (patch: Pick<EditorState, 'run' | 'runState'>) => {
    set({ ...patch, pauseClock: nextPauseClock(get().pauseClock, isPaused(patch), Date.now()) });
  };

  return {
    run: null,
    runState: emptyRun(),
    iterationFocus: null,
    pauseClock: NOT_PAUSED,

    setRun(run) {
      update({ run, runState: get().runState });
    },

    addEvents(events) {
      update({ run: get().run, runState: reduceEvents(get().runState, events) });
    },

    resetRun() {
      set({ run: null, runState: emptyRun(), iterationFocus: null, pauseClock: NOT_PAUSED });
    },

    focusIteration(focus) {
      set({ iterationFocus: focus });
    },
  };
}
