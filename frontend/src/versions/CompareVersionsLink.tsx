// The way from the editor to a comparison: what changed in the version on screen, since the one before.
import { Link } from '../components/Link';
import { compareUrl } from './links';

export function CompareVersionsLink({ workflowId, version, className = 'small' }: { workflowId: number | null; version: number | null; className?: string }) {
  if (workflowId === null || version === null || version < 2) return null;
  return (
    <Link to={compareUrl(workflowId, version - 1, version)} className={className} title={`What changed from version ${version - 1} to version ${version}; restore either`}>
      Compare with v{version - 1}
    </Link>
  );
}
