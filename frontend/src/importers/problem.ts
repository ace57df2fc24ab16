// What went wrong in the "import from another system" dialog, made readable: the server's 422 answer split
// into its message, the source field and line it names, and the parameter it says is missing.
import { ApiFieldError, errorText } from '../api/client';
import { bareMessage, missingParameter } from './report';

export interface ImportProblem {
  message: string;
  field: string | null;
  line: number | null;
  missing: string | null;
}

export function problemOf(err: unknown): ImportProblem {
  if (err instanceof ApiFieldError) {
    return { message: bareMessage(err.message, err.field, err.line), field: err.field, line: err.line, missing: missingParameter(err.message) };
  }
  const message = errorText(err);
  return { message, field: null, line: null, missing: missingParameter(message) };
}

/** A problem found on the page (not the server's): a message alone. */
export function pageProblem(message: string): ImportProblem {
  return { message, field: null, line: null, missing: null };
}
