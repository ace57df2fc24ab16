// Two versions of a workflow side by side: the list of changes, the later version's canvas with
// each step marked, and the YAML diff. Which versions: `?a=&b=` in the address (default: the one
// before the latest against the latest). Either can be restored as a new latest version.
import { useMemo, useState } from 'react';
import type { Workflow } from '../api/types';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { isLayout, isObject, type WorkflowDoc } from '../doc/types';
import { replaceSearch, useLocationSearch } from '../pages/useLocationSearch';
import { capabilities, cannotEditReason } from '../workspaces/roles';
import { ChangeList } from './ChangeList';
import { compareDocs } from './compareDocs';
import { DiffCanvas } from './DiffCanvas';
import { FileChanges, useFileChanges } from './FileChanges';
import { diffGraph } from './diffGraph';
import { choosePair, readPair, versionUrl } from './links';
import { RestoreButton } from './RestoreButton';
import { useVersion, useVersionList, useYamlPair } from './useVersions';
import { VersionPicker } from './VersionPicker';
import { YamlDiffView } from './YamlDiffView';
import './versions.css';

function docOf(wf: Workflow): WorkflowDoc {
  return isObject(wf.document) ? (wf.document as WorkflowDoc) : { name: wf.name, steps: [] };
}

export function ComparePage({ workflowId }: { workflowId: number }) {
  const versions = useVersionList(workflowId);
  const search = useLocationSearch();
  const asked = useMemo(() => readPair(search), [search]);
  const pair = useMemo(() => (versions.data ? choosePair(versions.data.map((v) => v.version), asked) : null), [versions.data, asked]);
  const a = useVersion(workflowId, pair?.a ?? null);
  const b = useVersion(workflowId, pair?.b ?? null);
  const [notice, setNotice] = useState<string | null>(null);

  const choose = (next: { a: number; b: number }) => {
    setNotice(null);
    replaceSearch(`?a=${next.a}&b=${next.b}`);
  };
  const restored = (wf: Workflow, from: number) => {
    setNotice(`Restored version ${from} as version ${wf.version}. Below: what the restore changed.`);
    // The list first: an address naming a version the list does not hold yet would be corrected away.
    void versions.reload().then(() => replaceSearch(`?a=${wf.version - 1}&b=${wf.version}`));
  };

  if (versions.error) {
    return (
      <div className="page-message">
        <h2>Could not open this workflow’s history</h2>
        <p className="muted">{versions.error}</p>
        <Link to="/" className="btn">
          Go to your workflows
        </Link>
      </div>
    );
  }
  if (!versions.data) return <div className="page-message muted" role="status">Loading the versions…</div>;
  if (!pair) {
    return (
      <div className="page-message">
        <h2>Nothing to compare yet</h2>
        <p className="muted">This workflow has one version. Every save makes a new one; come back after the next save.</p>
        <Link to={`/workflows/${workflowId}`} className="btn">
          Open the workflow
        </Link>
      </div>
    );
  }
  const latest = versions.data[0].version;
  const loaded = a.data && b.data ? { a: a.data, b: b.data } : null;
  const name = loaded?.b.name ?? '';
  const role = loaded?.b.role;
  const blocked = capabilities(role).edit ? null : cannotEditReason(role, loaded?.b.workspace_name ?? '');

  return (
    <div className="page vc-page" data-testid="compare-page">
      <div className="page-head">
        <div>
          <h1>Compare versions</h1>
          <p className="muted">
            {name && <span className="strong">{name}</span>} {name && '· '}
            <Link to={`/workflows/${workflowId}`}>Open the latest in the editor</Link>
          </p>
        </div>
      </div>
      {notice && (
        <Banner kind="info" onClose={() => setNotice(null)}>
          {notice}
        </Banner>
      )}
      {pair.note && <Banner kind="warning">{pair.note}</Banner>}
      <div className="vc-choosers">
        <VersionPicker label="Earlier" versions={versions.data} value={pair.a} onChange={(n) => choose({ a: n, b: pair.b })} testId="compare-a" />
        <button type="button" className="btn small ghost" onClick={() => choose({ a: pair.b, b: pair.a })} title="Swap the two versions">
          ⇄ Swap
        </button>
        <VersionPicker label="Later" versions={versions.data} value={pair.b} onChange={(n) => choose({ a: pair.a, b: n })} testId="compare-b" />
        <span className="spacer" />
        {[pair.a, pair.b]
          .filter((n, i, all) => n !== latest && all.indexOf(n) === i)
          .map((n) => (
            <RestoreButton key={n} workflowId={workflowId} version={n} latest={latest} blocked={blocked} onRestored={(wf) => restored(wf, n)} />
          ))}
      </div>
      {pair.a === pair.b && <p className="muted">Both sides are version {pair.a}: choose another version to see what changed.</p>}
      {a.error && <Banner>{a.error}</Banner>}
      {b.error && <Banner>{b.error}</Banner>}
      {!a.error && !b.error && !loaded && (
        <p className="muted" role="status">
          Loading versions {pair.a} and {pair.b}…
        </p>
      )}
      {loaded && <Comparison a={loaded.a} b={loaded.b} />}
    </div>
  );
}

function Legend() {
  return (
    <ul className="diff-legend" aria-label="What the marks mean">
      <li>
        <span className="diff-swatch diff-swatch-added" aria-hidden /> + added
      </li>
      <li>
        <span className="diff-swatch diff-swatch-changed" aria-hidden /> ~ changed (hover for what)
      </li>
      <li>
        <span className="diff-swatch diff-swatch-removed" aria-hidden /> − removed (drawn below, dashed)
      </li>
      <li>
        <span className="diff-swatch diff-swatch-unchanged" aria-hidden /> unchanged
      </li>
    </ul>
  );
}

/** The summary's words: steps, then fields outside them, then folder files; null while the files load. */
function summaryOf(diff: ReturnType<typeof compareDocs>, files: number | null): string | null {
  const { added, removed, changed } = diff.counts;
  const parts: string[] = [];
  if (diff.steps.some((s) => s.kind !== 'unchanged')) parts.push(`${added} step${added === 1 ? '' : 's'} added, ${changed} changed, ${removed} removed`);
  if (diff.workflow.length) parts.push(`${diff.workflow.length} change${diff.workflow.length === 1 ? '' : 's'} outside the steps`);
  if (files) parts.push(`${files} folder file${files === 1 ? '' : 's'} differ${files === 1 ? 's' : ''}`);
  if (parts.length) return `${parts.join('; ')}.`;
  if (files === null) return null;
  return 'The two versions hold the same workflow and the same files.';
}

function Comparison({ a, b }: { a: Workflow; b: Workflow }) {
  const [selected, setSelected] = useState<string | null>(null);
  const docA = useMemo(() => docOf(a), [a]);
  const docB = useMemo(() => docOf(b), [b]);
  const layoutA = isLayout(a.layout) ? a.layout : null;
  const layoutB = isLayout(b.layout) ? b.layout : null;
  const diff = useMemo(() => compareDocs(docA, docB), [docA, docB]);
  const graph = useMemo(() => diffGraph({ doc: docA, layout: layoutA }, { doc: docB, layout: layoutB }, diff), [docA, docB, layoutA, layoutB, diff]);
  const yaml = useYamlPair(a, b);
  const files = useFileChanges(a.id, a.version, b.version);
  const fileCount = files.data ? files.data.length : files.error ? 0 : null;
  const summary = summaryOf(diff, fileCount) ?? 'Comparing the folder’s files…';
  const picked = selected ? diff.steps.find((s) => s.key === selected) : undefined;

  return (
    <>
      <p className="vc-summary" data-testid="compare-summary">
        From <Link to={versionUrl(a.id, a.version)}>version {a.version}</Link> to <Link to={versionUrl(b.id, b.version)}>version {b.version}</Link>: {summary}
      </p>
      <div className="vc-body">
        <section className="vc-graph" aria-label={`Version ${b.version} on the canvas, marked`}>
          <Legend />
          <DiffCanvas graph={graph} doc={docB} layout={layoutB} selected={selected} onSelect={setSelected} />
          <p className="vc-picked small" aria-live="polite">
            {picked ? `${picked.key}: ${picked.kind}${picked.fields.length ? ` (${picked.fields.map((f) => `${f.field} ${f.change}`).join(', ')})` : ''}` : 'Pick a step to see what changed in it.'}
          </p>
        </section>
        <aside className="vc-changes" aria-label="List of changes">
          <h3>Changes</h3>
          <ChangeList diff={diff} files={files.data} selected={selected} onSelect={setSelected} />
        </aside>
      </div>
      {yaml.error && <Banner>{yaml.error}</Banner>}
      {!yaml.data && !yaml.error && <p className="muted">Loading the YAML…</p>}
      {yaml.data && <YamlDiffView before={yaml.data[0]} after={yaml.data[1]} labels={[`Version ${a.version}`, `Version ${b.version}`]} />}
      <FileChanges changes={files.data} error={files.error} labels={[`Version ${a.version}`, `Version ${b.version}`]} />
    </>
  );
}

