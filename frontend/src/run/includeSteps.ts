// An include step's result as the engine and zenflow's runner give it: `innerSteps`, keyed by the included
// steps' namespaced ids (`do_build.compile`), each with its content and status (runtime/engine/includes.py).
import type { Json } from '../doc/types';

export interface InnerStepRow {
  id: string;
  status: string;
  content: string;
}

/** The rows of a result's `innerSteps`, in the order the result lists them; none when it has no such map. */
export function innerStepRows(result: Json | undefined): InnerStepRow[] {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return [];
  const inner = (result as Record<string, Json>).innerSteps;
  if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return [];
  return Object.entries(inner).map(([id, value]) => {
    const entry = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};
    return {
      id,
      status: typeof entry.status === 'string' ? entry.status : '',
      content: typeof entry.content === 'string' ? entry.content : entry.content == null ? '' : JSON.stringify(entry.content),
    };
  });
}
