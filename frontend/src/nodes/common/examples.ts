// Grey examples in empty fields: marked as examples ("e.g.", and italic in the stylesheet) and naming
// what this workflow has, so that a placeholder is never read as a value, nor as a step that exists
// when it does not.
import { stepRef } from '../../doc/celScope';

/**
 * The condition field's example: over the first step this one depends on (the steps a condition can
 * read); without one, what the field takes, in words.
 */
export function conditionExample(deps: readonly string[]): string {
  return deps.length ? `e.g. ${stepRef(deps[0])}.status == 'completed'` : 'a CEL expression over the steps this one depends on';
}
