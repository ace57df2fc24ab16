/** Two versions of a workflow side by side (being built). */
export function ComparePage({ workflowId }: { workflowId: number }) {
  return <div className="page-message">Comparing versions of workflow {workflowId}…</div>;
}
