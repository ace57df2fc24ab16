import type { MouseEvent, ReactNode } from 'react';
import { setLoopField } from '../../doc/ops';
import { isObject, type JsonObject, type Step, type WorkflowDoc } from '../../doc/types';
import { Field, ProblemLines, Section, SelectInput } from '../../forms/fields';
import { HELP } from '../../forms/help';
import { useApplyDoc } from '../../forms/useApplyDoc';
import { IterationOutputNote } from './IterationOutputNote';
import type { FieldProblems } from './stepEdits';

/** A forEach loop over the placeholder items, from a repeat-until loop: the repeat-until fields go. */
function toForEach(stepKey: string) {
  return (d: WorkflowDoc) => {
    let next = setLoopField(d, stepKey, 'forEach', ['first', 'second']);
    for (const f of ['maxIterations', 'until', 'untilAgent', 'delay']) next = setLoopField(next, stepKey, f, undefined);
    return next;
  };
}

/** A repeat-until loop of at most 3 iterations, from a forEach loop: the forEach fields go. */
function toRepeat(stepKey: string) {
  return (d: WorkflowDoc) => {
    let next = setLoopField(d, stepKey, 'forEach', undefined);
    next = setLoopField(next, stepKey, 'maxConcurrency', undefined);
    return setLoopField(next, stepKey, 'maxIterations', 3);
  };
}

/**
 * Switching the mode changes the step's kind, and the inspector then shows
 * that kind's panel: focus goes back to the mode switch, where it was.
 */
function keepFocusOnModeSwitch(e: MouseEvent<HTMLButtonElement>) {
  const inspector = e.currentTarget.closest('.inspector');
  requestAnimationFrame(() => inspector?.querySelector<HTMLElement>('[aria-label="Loop mode"] .active')?.focus());
}

const OUTPUT_MODE = 'loop.outputMode';

/**
 * The loop settings of both loop kinds: the mode switch (forEach or
 * repeat-until), the kind's own fields (`children`, which show the problems
 * of `fields`), and what an iteration and the loop hand on. Problems about
 * the loop that no field here shows (an empty loop, an empty list of inner
 * steps, a setting of the other mode) show under the mode switch.
 */
export function LoopSettings({ stepKey, step, problems, fields, children }: { stepKey: string; step: Step; problems: FieldProblems; fields: readonly string[]; children: ReactNode }) {
  const apply = useApplyDoc();
  const loop: JsonObject = isObject(step.loop) ? step.loop : {};
  const isForEach = 'forEach' in loop;
  const shown = new Set([...fields, OUTPUT_MODE].flatMap((f) => problems(f)));
  const others = problems('loop').filter((p) => !shown.has(p));
  return (
    <Section title="Loop settings">
      <div className="segmented" role="group" aria-label="Loop mode">
        <button
          className={isForEach ? 'active' : ''}
          onClick={(e) => {
            if (isForEach) return;
            keepFocusOnModeSwitch(e);
            apply(toForEach(stepKey));
          }}
        >
          forEach
        </button>
        <button
          className={!isForEach ? 'active' : ''}
          onClick={(e) => {
            if (!isForEach) return;
            keepFocusOnModeSwitch(e);
            apply(toRepeat(stepKey));
          }}
        >
          repeat-until
        </button>
      </div>
      {others.length > 0 && (
        <div className="loop-problems" data-field="loop" data-testid="loop-problems">
          <ProblemLines problems={others} />
        </div>
      )}
      {children}
      <IterationOutputNote loopKey={stepKey} step={step} cumulative={loop.outputMode === 'cumulative'} />
      <Field field={OUTPUT_MODE} label="Output mode" help={HELP['loop.outputMode']} problems={problems(OUTPUT_MODE)}>
        <SelectInput
          field={OUTPUT_MODE}
          value={typeof loop.outputMode === 'string' ? loop.outputMode : undefined}
          unsetLabel="(default: last)"
          options={[
            { value: 'last', label: 'last' },
            { value: 'cumulative', label: 'cumulative' },
            { value: '', label: '"" (same as last)' },
          ]}
          onChange={(v) => apply((d) => setLoopField(d, stepKey, 'outputMode', v), `loop.${stepKey}.outputMode`)}
        />
      </Field>
    </Section>
  );
}
