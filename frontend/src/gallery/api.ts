// The template gallery (docs/api.md: GET /api/v1/templates, /templates/{slug}).
// A template carries `document_yaml` and `script_yaml`, ready to save and run.
import { answer, api, client } from '../api/client';
import type { TemplateOut, TemplateSummaryOut } from '../api/openapi.gen';
import type { Run, Workflow, WorkflowSummary } from '../api/types';

export type TemplateSummary = TemplateSummaryOut;
export type Template = TemplateOut;

export function listTemplates(signal?: AbortSignal): Promise<TemplateSummary[]> {
  return answer(client.GET('/api/v1/templates', { signal }));
}

export function getTemplate(slug: string): Promise<Template> {
  return answer(client.GET('/api/v1/templates/{slug}', { params: { path: { slug } } }));
}

/** The workflow name a template's document gives (the server names a workflow after its document). */
export function templateName(template: Pick<Template, 'document' | 'slug'>): string {
  const name = template.document?.name;
  return typeof name === 'string' && name.trim() ? name : template.slug;
}

/** The workflows called `name`, the most recently updated first. */
export function copiesNamed(name: string, workflows: readonly WorkflowSummary[]): WorkflowSummary[] {
  return workflows.filter((w) => w.name === name).sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || b.id - a.id);
}

/** The first of "<name> (2)", "<name> (3)", ... that no workflow is called. */
export function nextFreeName(name: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  for (let n = 2; ; n++) {
    const candidate = `${name} (${n})`;
    if (!names.has(candidate)) return candidate;
  }
}

/**
 * The template's YAML with its top-level `name:` set to `name`, comments kept:
 * the workflow takes its name from the document on every save, so a name given
 * only beside the document would not last past the first edit.
 */
export function withName(yaml: string, name: string): string {
  // A JSON string is a YAML double-quoted scalar: any name reads back as itself.
  return yaml.replace(/^name:.*$/m, () => `name: ${JSON.stringify(name)}`);
}

/** Saves the template as a new workflow in `workspace` (absent: the personal one), called `name` (absent: as the template). */
export function saveTemplate(template: Template, workspace?: number | null, name?: string): Promise<Workflow> {
  const source = name === undefined ? template.document_yaml : withName(template.document_yaml, name);
  return api.createWorkflow({ source, ...(name === undefined ? {} : { name }), ...(workspace ? { workspace_id: workspace } : {}) });
}

/** Starts a simulated run of a saved workflow with the template's script. */
export function runTemplate(template: Template, workflowId: number): Promise<Run> {
  return api.startRun({ workflow_id: workflowId, provider: 'simulated', script: template.script_yaml });
}

/** Saves the template's document (its YAML, comments included) as a new workflow, in `workspace` (absent: the personal one). */
export async function openTemplate(slug: string, workspace?: number | null): Promise<{ template: Template; workflow: Workflow }> {
  const template = await getTemplate(slug);
  return { template, workflow: await saveTemplate(template, workspace) };
}

/** A workspace that already has workflows called like the template: the newest first, and the name another copy would get. */
export interface TemplateCopies {
  template: Template;
  name: string;
  copies: WorkflowSummary[];
  another: string;
}

export type OpenAndRun = { kind: 'started'; workflow: Workflow; run: Run } | ({ kind: 'copies' } & TemplateCopies);

/**
 * "Open and run": saves the template and starts a simulated run of it, unless
 * the workspace already has a workflow of its name; then it only says which
 * (the user picks `runCopy` or `runAnother`), so repeated clicks do not pile up
 * identical workflows.
 */
export async function openAndRunTemplate(slug: string, workspace?: number | null): Promise<OpenAndRun> {
  const template = await getTemplate(slug);
  const name = templateName(template);
  // Asked of the server by name: the list itself is one page, and a workspace can have thousands.
  const listed = (await api.workflowPage({ workspace, q: name, limit: 200 })).items;
  // Without a workspace the list holds every workspace's; with one, only its own count.
  const here = workspace ? listed.filter((w) => w.workspace_id === undefined || w.workspace_id === workspace) : listed;
  const copies = copiesNamed(name, here);
  if (copies.length > 0) return { kind: 'copies', template, name, copies, another: nextFreeName(name, here.map((w) => w.name)) };
  const workflow = await saveTemplate(template, workspace);
  return { kind: 'started', workflow, run: await runTemplate(template, workflow.id) };
}

/** Runs the user's copy of the template (the most recently updated one). */
export function runCopy(found: TemplateCopies): Promise<Run> {
  return runTemplate(found.template, found.copies[0].id);
}

/** Saves another copy of the template, called `found.another`, and runs it. */
export async function runAnother(found: TemplateCopies, workspace?: number | null): Promise<{ workflow: Workflow; run: Run }> {
  const workflow = await saveTemplate(found.template, workspace, found.another);
  return { workflow, run: await runTemplate(found.template, workflow.id) };
}
