// A chooser of one version: its number, when it was saved, and whether it was valid or a draft.
import type { VersionInfo } from '../api/types';
import { when } from '../format/dates';

export function versionLabel(v: VersionInfo, latest: number): string {
  return `Version ${v.version}${v.version === latest ? ' (latest)' : ''} · ${when(v.created_at)} · ${v.valid ? 'valid' : 'draft'}`;
}

export function VersionPicker({ label, versions, value, onChange, testId }: {
  label: string;
  versions: readonly VersionInfo[];
  value: number;
  onChange: (n: number) => void;
  testId: string;
}) {
  const latest = versions.length ? Math.max(...versions.map((v) => v.version)) : 0;
  return (
    <label className="version-picker">
      <span className="version-picker-label">{label}</span>
      <select value={value} onChange={(e) => onChange(Number(e.target.value))} data-testid={testId}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            {versionLabel(v, latest)}
          </option>
        ))}
      </select>
    </label>
  );
}
