// The dialog's parameter rows (name = value): edited, removed, added, and the one a 422 says is missing
// added (or its value field focused when it is there already).
import { useRef, useState } from 'react';
import type { ParamRow } from './report';

/** `onEdit`: a row changed (the shown result is stale). */
export function useParamRows(onEdit: () => void) {
  const [rows, setRows] = useState<ParamRow[]>([]);
  const valueInputs = useRef<(HTMLInputElement | null)[]>([]);
  const focusRow = useRef<number | null>(null);

  const setRow = (i: number, patch: Partial<ParamRow>) => {
    onEdit();
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };

  const removeRow = (i: number) => {
    onEdit();
    setRows(rows.filter((_, j) => j !== i));
  };

  const addRow = () => {
    focusRow.current = null;
    setRows([...rows, { name: '', value: '' }]);
  };

  const addMissing = (name: string) => {
    const at = rows.findIndex((r) => r.name.trim() === name);
    if (at >= 0) {
      valueInputs.current[at]?.focus();
      return;
    }
    focusRow.current = rows.length;
    setRows([...rows, { name, value: '' }]);
  };

  /** The ref of row i's value field: a row added for a missing parameter takes the focus. */
  const valueRef = (i: number) => (el: HTMLInputElement | null) => {
    valueInputs.current[i] = el;
    if (el && focusRow.current === i) {
      focusRow.current = null;
      el.focus();
    }
  };

  return { rows, setRow, removeRow, addRow, addMissing, valueRef };
}

export type ParamRows = ReturnType<typeof useParamRows>;
