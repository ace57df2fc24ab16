// The workspace's own provider keys: which are set (never the key itself); admins store and delete them.
// And whether the server's own keys may be spent here (shown to everyone; only the server's owner decides).
import { useCallback, useId, useState } from 'react';
import { api } from '../../api/client';
import type { WorkspaceKey } from '../../api/types';
import { capabilities } from '../../workspaces/roles';
import { useAction, useServerList, type SectionProps } from './common';
import { FormError, SavedNote, SettingsSection } from './SettingsSection';

// Upstream's provider names (runtime/providers/catalog.py), in the server's order.
const LABEL: Record<WorkspaceKey['provider'], string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  vertex: 'Google Vertex AI',
  bedrock: 'Amazon Bedrock',
  azure: 'Azure OpenAI',
  mistral: 'Mistral',
  groq: 'Groq',
  deepseek: 'DeepSeek',
  openrouter: 'OpenRouter',
  ollama: 'Ollama',
  xai: 'xAI',
  together: 'Together AI',
  fireworks: 'Fireworks AI',
  cerebras: 'Cerebras',
};
const PROVIDERS = Object.keys(LABEL) as WorkspaceKey['provider'][];
// What the key field takes where it is not a plain API key, and where the base URL is required.
const KEY_HINT: Partial<Record<WorkspaceKey['provider'], string>> = {
  bedrock: 'a Bedrock API key, or ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]',
  vertex: 'an API key, or an access token (ya29.…)',
};
const URL_HINT: Partial<Record<WorkspaceKey['provider'], string>> = {
  bedrock: 'https://bedrock-runtime.<region>.amazonaws.com',
  azure: 'https://<resource>.openai.azure.com (required)',
  ollama: 'http://localhost:11434/v1',
};

export function KeysSection({ detail, onDetail }: SectionProps) {
  const caps = capabilities(detail.role);
  const [provider, setProvider] = useState<WorkspaceKey['provider']>('openai');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const store = useAction();
  const remove = useAction();
  const errorId = useId();
  const workspaceId = detail.id;

  const { items: keys, setItems: setKeys, error: listError, load } = useServerList<WorkspaceKey>(
    useCallback(() => api.workspaceKeys(workspaceId), [workspaceId]),
  );

  const submit = () => {
    setSaved(null);
    if (!apiKey.trim()) {
      store.setError('API key: paste the key.');
      return;
    }
    void store.run(async () => {
      setKeys(await api.storeWorkspaceKey(workspaceId, { provider, api_key: apiKey.trim(), ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}) }));
      setApiKey(''); // never kept on the page
      setBaseUrl('');
      setSaved(`${LABEL[provider]} key stored.`);
    });
  };

  return (
    <SettingsSection
      title="Provider keys"
      testId="ws-keys-section"
      intro="Runs in this workspace use its own key for a provider first; without one, the server’s key where the server’s owner granted it. Keys are stored encrypted and never shown again."
    >
      <FormError error={listError} />
      {keys && (
        <table className="table compact" data-testid="ws-keys" aria-label="Provider keys">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Key</th>
              <th>Base URL</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.provider} data-testid={`ws-key-${k.provider}`} data-set={k.set ? '1' : '0'}>
                <td className="strong">{LABEL[k.provider] ?? k.provider}</td>
                <td>
                  {k.set ? (
                    <span>
                      <span className="pill small pill-ok">set</span>
                      {k.stored_by && <span className="muted small"> by {k.stored_by}</span>}
                    </span>
                  ) : (
                    <span className="pill small">not set</span>
                  )}
                </td>
                <td className="mono small">{k.base_url || <span className="muted">default</span>}</td>
                <td className="actions">
                  {caps.manage && k.set && (
                    <button
                      className="btn ghost small danger"
                      disabled={remove.busy}
                      aria-label={`Delete the ${LABEL[k.provider] ?? k.provider} key`}
                      onClick={() =>
                        window.confirm(`Delete this workspace's ${LABEL[k.provider] ?? k.provider} key? Runs here then use the server's key, if granted, or none.`) &&
                        void remove.run(async () => {
                          await api.deleteWorkspaceKey(workspaceId, k.provider);
                          setSaved(null);
                          load();
                        })
                      }
                      data-testid={`ws-key-delete-${k.provider}`}
                    >
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormError error={remove.error} testId="ws-key-delete-error" />
      {caps.manage ? (
        <form
          className="ws-form"
          data-testid="ws-key-form"
          autoComplete="off"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label className="mini-field">
            <span className="field-label">Provider</span>
            <select className="input" value={provider} onChange={(e) => setProvider(e.target.value as WorkspaceKey['provider'])} data-testid="ws-key-provider">
              {PROVIDERS.map((name) => (
                <option key={name} value={name}>
                  {LABEL[name]}
                </option>
              ))}
            </select>
          </label>
          <label className="mini-field ws-grow">
            <span className="field-label">API key</span>
            <input
              className="input mono"
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              value={apiKey}
              maxLength={500}
              placeholder={KEY_HINT[provider]}
              onChange={(e) => setApiKey(e.target.value)}
              aria-describedby={store.error ? errorId : undefined}
              data-testid="ws-key-value"
            />
          </label>
          <label className="mini-field ws-grow">
            <span className="field-label">Base URL (optional)</span>
            <input
              className="input mono"
              type="url"
              value={baseUrl}
              maxLength={300}
              placeholder={URL_HINT[provider] ?? "the provider's own"}
              onChange={(e) => setBaseUrl(e.target.value)}
              aria-describedby={store.error ? errorId : undefined}
              data-testid="ws-key-base-url"
            />
          </label>
          <button type="submit" className="btn primary" disabled={store.busy} data-testid="ws-key-save">
            {store.busy ? 'Storing…' : 'Store key'}
          </button>
        </form>
      ) : (
        <p className="muted small">Only admins and owners store or delete this workspace’s keys.</p>
      )}
      <FormError error={store.error} id={errorId} testId="ws-key-error" />
      <SavedNote text={saved} />
      <ServerKeysToggle detail={detail} onDetail={onDetail} />
    </SettingsSection>
  );
}

/** Shown to everyone as a status; the checkbox is the server's owner's alone (as the API holds): off, saying so, for the others. */
function ServerKeysToggle({ detail, onDetail }: Pick<SectionProps, 'detail' | 'onDetail'>) {
  const action = useAction();
  const id = useId();
  const granted = detail.server_keys;
  const notYours = detail.can_grant_server_keys ? undefined : 'Only the server’s owner can change this: runs here use the server’s keys only when the owner grants them.';

  return (
    <div className="ws-server-keys" data-testid="ws-server-keys">
      <h3 className="ws-subhead">The server’s keys</h3>
      <p className="small" data-testid="ws-server-keys-status" data-granted={granted ? '1' : '0'}>
        <span className={`pill small ${granted ? 'pill-ok' : ''}`}>{granted ? 'granted' : 'not granted'}</span>{' '}
        {granted
          ? 'Runs in this workspace may use the server’s own provider keys where it has no key of its own.'
          : 'Runs in this workspace use only its own keys (the server’s are not granted).'}
      </p>
      <label className="ws-check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={granted}
          disabled={action.busy || !!notYours}
          title={notYours}
          onChange={(e) => {
            const next = e.target.checked;
            void action.run(async () => onDetail(await api.setServerKeys(detail.id, next)));
          }}
          aria-describedby={action.error ? `${id}-error` : undefined}
          data-testid="ws-server-keys-toggle"
        />{' '}
        Let runs here use the server’s keys <span className="muted small">(only the server’s owner can change this)</span>
      </label>
      <FormError error={action.error} id={`${id}-error`} testId="ws-server-keys-error" />
    </div>
  );
}
