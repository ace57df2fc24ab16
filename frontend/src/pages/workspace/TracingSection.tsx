// Where the workspace's runs send their OpenTelemetry traces: the server's collector, one of its own (an OTLP/HTTP
// endpoint with headers, write-only), or none; and the link from a run's page to its trace. Everyone sees it;
// admins and owners change it (the server checks every field and says which one is wrong).
import { useEffect, useId, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { TraceTest, WorkspaceTracing } from '../../api/types';
import { capabilities } from '../../workspaces/roles';
import { MODE_WORDS, maskedHeader, tracingChange, tracingForm, type TracingForm, type TracingMode } from '../../workspaces/tracingForm';
import { useAction, type SectionProps } from './common';
import { FormError, SavedNote, SettingsSection } from './SettingsSection';

const MODES = Object.keys(MODE_WORDS) as TracingMode[];

export function TracingSection({ detail }: SectionProps) {
  const caps = capabilities(detail.role);
  const [stored, setStored] = useState<WorkspaceTracing | null>(null);
  const [form, setForm] = useState<TracingForm | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [tested, setTested] = useState<TraceTest | null>(null);
  const action = useAction();
  const test = useAction();
  const errorId = useId();
  const workspaceId = detail.id;

  useEffect(() => {
    let live = true;
    api.workspaceTracing(workspaceId).then(
      (t) => {
        if (!live) return;
        setStored(t);
        setForm(tracingForm(t));
      },
      (e) => live && setLoadError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [workspaceId]);

  const submit = () => {
    if (!form) return;
    setSaved(false);
    void action.run(async () => {
      const t = await api.setWorkspaceTracing(workspaceId, tracingChange(form));
      setStored(t);
      setForm(tracingForm(t)); // the headers typed in are never kept on the page
      setSaved(true);
      setTested(null);
    });
  };

  const sendTest = () => {
    setTested(null);
    void test.run(async () => setTested(await api.testWorkspaceTracing(workspaceId)));
  };

  const serverWords = stored?.server_collector ? 'This server sends traces to its collector.' : 'This server has no collector of its own.';
  const readOnly = !caps.manage;
  const describedBy = action.error ? errorId : undefined;

  return (
    <SettingsSection
      title="Tracing"
      testId="ws-tracing-section"
      intro="Runs can send OpenTelemetry traces over OTLP/HTTP (to Jaeger, Langfuse, an OpenTelemetry Collector…). A collector that is slow or down never slows or fails a run."
    >
      <FormError error={loadError} />
      {stored && form && (
        <form
          className="ws-tracing"
          data-testid="ws-tracing-form"
          autoComplete="off"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <fieldset className="ws-modes" disabled={readOnly}>
            <legend className="field-label">Send this workspace’s traces to</legend>
            {MODES.map((mode) => (
              <label key={mode} className="ws-check">
                <input
                  type="radio"
                  name={`tracing-mode-${workspaceId}`}
                  value={mode}
                  checked={form.mode === mode}
                  onChange={() => setForm({ ...form, mode })}
                  data-testid={`ws-tracing-mode-${mode}`}
                />{' '}
                {MODE_WORDS[mode]}
                {mode === 'server' && <span className="muted small"> ({serverWords})</span>}
              </label>
            ))}
          </fieldset>
          <div className="ws-form">
            <label className="mini-field ws-grow">
              <span className="field-label">Endpoint (the traces URL)</span>
              <input
                className="input mono"
                type="url"
                value={form.endpoint}
                maxLength={500}
                readOnly={readOnly}
                placeholder="https://collector.example.com/v1/traces"
                onChange={(e) => setForm({ ...form, endpoint: e.target.value })}
                aria-describedby={describedBy}
                data-testid="ws-tracing-endpoint"
              />
            </label>
            <label className="mini-field ws-grow">
              <span className="field-label">Headers (Name=value, comma-separated; write-only)</span>
              <input
                className="input mono"
                type="password"
                autoComplete="new-password"
                spellCheck={false}
                value={form.headers}
                maxLength={4000}
                readOnly={readOnly}
                placeholder={stored.header_names.length ? 'leave blank to keep the stored headers' : 'Authorization=Basic …'}
                onChange={(e) => setForm({ ...form, headers: e.target.value })}
                aria-describedby={describedBy}
                data-testid="ws-tracing-headers"
              />
            </label>
          </div>
          <p className="small" data-testid="ws-tracing-stored-headers">
            {stored.header_names.length ? (
              <>
                Stored headers:{' '}
                {stored.header_names.map((name) => (
                  <span key={name} className="pill small mono" data-testid="ws-tracing-header">
                    {maskedHeader(name)}
                  </span>
                ))}{' '}
                {!readOnly && (
                  <label className="ws-check">
                    <input
                      type="checkbox"
                      checked={form.clearHeaders}
                      onChange={(e) => setForm({ ...form, clearHeaders: e.target.checked })}
                      data-testid="ws-tracing-clear-headers"
                    />{' '}
                    forget them
                  </label>
                )}
              </>
            ) : (
              <span className="muted">No headers stored.</span>
            )}
          </p>
          <div className="ws-form">
            <label className="mini-field ws-grow">
              <span className="field-label">Link to a trace (with {'{trace_id}'})</span>
              <input
                className="input mono"
                type="text"
                value={form.linkTemplate}
                maxLength={500}
                readOnly={readOnly}
                placeholder={stored.server_link_template || 'http://jaeger:16686/trace/{trace_id}'}
                onChange={(e) => setForm({ ...form, linkTemplate: e.target.value })}
                aria-describedby={describedBy}
                data-testid="ws-tracing-link-template"
              />
            </label>
            {!readOnly && (
              <button type="submit" className="btn primary" disabled={action.busy} data-testid="ws-tracing-save">
                {action.busy ? 'Saving…' : 'Save tracing'}
              </button>
            )}
            {!readOnly && stored.mode === 'own' && (
              <button
                type="button"
                className="btn"
                disabled={test.busy}
                title="Send one span now to this workspace’s collector, as saved"
                onClick={sendTest}
                data-testid="ws-tracing-test"
              >
                {test.busy ? 'Sending…' : 'Send a test span'}
              </button>
            )}
          </div>
          <p className="muted small">
            {stored.server_link_template
              ? 'Left blank, run pages link to traces with the server’s template.'
              : 'Left blank, run pages show the trace id without a link.'}{' '}
            A run keeps the link it started with.
          </p>
        </form>
      )}
      {readOnly && <p className="muted small">Only admins and owners change where traces go.</p>}
      <FormError error={action.error} id={errorId} testId="ws-tracing-error" />
      <SavedNote text={saved && !action.error ? 'Tracing saved.' : null} />
      <FormError error={test.error ?? (tested && !tested.ok ? `The test span did not arrive: ${tested.error ?? 'no reason given'}` : null)} testId="ws-tracing-test-error" />
      {tested?.ok && (
        <p className="small ws-ok" role="status" data-testid="ws-tracing-test-ok">
          ✓ The collector took a test span (trace{' '}
          {tested.trace_url ? (
            <a href={tested.trace_url} target="_blank" rel="noreferrer" className="mono">
              {tested.trace_id}
            </a>
          ) : (
            <span className="mono">{tested.trace_id}</span>
          )}
          ).
        </p>
      )}
    </SettingsSection>
  );
}
