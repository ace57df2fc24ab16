// The template gallery (docs/api.md: GET /api/v1/templates, /templates/{slug}).
// A template carries `document_yaml` and `script_yaml`, ready to save and run.
import { api, requestJson } from '../api/client';
import type { Run, Workflow } from '../api/types';
import type { JsonObject } from '../doc/types';

export interface TemplateSummary {
  slug: string;
  title: string;
  description: string;
  pattern: string;
  origin: string;
}

export interface Template extends TemplateSummary {
  document: JsonObject;
  document_yaml: string;
  script: JsonObject;
  script_yaml: string;
}

export function listTemplates(signal?: AbortSignal): Promise<TemplateSummary[]> {
  return requestJson<TemplateSummary[]>('GET', '/templates', undefined, signal);
}

export function getTemplate(slug: string): Promise<Template> {
  return requestJson<Template>('GET', `/templates/${encodeURIComponent(slug)}`);
}

/** Saves the template's document (its YAML, comments included) as a new workflow, in `workspace` (absent: the personal one). */
export async function openTemplate(slug: string, workspace?: number | null): Promise<{ template: Template; workflow: Workflow }> {
  const template = await getTemplate(slug);
  const workflow = await api.createWorkflow({ source: template.document_yaml, ...(workspace ? { workspace_id: workspace } : {}) });
  return { template, workflow };
}

/** Saves the template, then starts a simulated run of it with the template's script. */
export async function openAndRunTemplate(slug: string, workspace?: number | null): Promise<{ workflow: Workflow; run: Run }> {
  const { template, workflow } = await openTemplate(slug, workspace);
  const run = await api.startRun({ workflow_id: workflow.id, provider: 'simulated', script: template.script_yaml });
  return { workflow, run };
}
