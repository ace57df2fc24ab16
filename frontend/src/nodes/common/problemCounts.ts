import { createContext, useContext } from 'react';

export interface ProblemCount {
  errors: number;
  warnings: number;
}

/** Problem counts by node key, computed once per validation by the canvas. */
export const ProblemsContext = createContext<Map<string, ProblemCount>>(new Map());

export function useProblemCount(key: string): ProblemCount | undefined {
  return useContext(ProblemsContext).get(key);
}
