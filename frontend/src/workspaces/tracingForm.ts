// The workspace settings' Tracing form, its pure parts: what the form sends (the headers are write-only: left
// blank they stay as stored) and how stored headers are shown (by name, the value masked).
import type { WorkspaceTracing, WorkspaceTracingChange } from '../api/types';

export type TracingMode = WorkspaceTracing['mode'];

export interface TracingForm {
  mode: TracingMode;
  endpoint: string;
  /** New headers typed in (`Name=value,Name2=value2`); blank: keep the stored ones. */
  headers: string;
  /** Forget the stored headers (when none are typed in). */
  clearHeaders: boolean;
  linkTemplate: string;
}

export const MODE_WORDS: Record<TracingMode, string> = {
  server: 'The server’s collector',
  own: 'This workspace’s own collector',
  off: 'No traces',
};

/** The form as the stored settings fill it (the headers' values are never sent back: the field starts blank). */
export function tracingForm(settings: WorkspaceTracing): TracingForm {
  return { mode: settings.mode, endpoint: settings.endpoint, headers: '', clearHeaders: false, linkTemplate: settings.link_template };
}

/** What to send: headers typed in replace the stored ones, "clear" empties them, else null keeps them. */
export function tracingChange(form: TracingForm): WorkspaceTracingChange {
  const typed = form.headers.trim();
  return {
    mode: form.mode,
    endpoint: form.endpoint.trim(),
    headers: typed ? typed : form.clearHeaders ? '' : null,
    link_template: form.linkTemplate.trim(),
  };
}

/** Stored headers as shown: `Authorization=••••••` (the value is never known to the page). */
export function maskedHeader(name: string): string {
  return `${name}=••••••`;
}
