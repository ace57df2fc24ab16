// The run's control buttons and its status, as both run pages' headers show them.
export type ControlAction = 'pause' | 'resume' | 'stop';

/** Why the controls are off, in words: the user's role, or the run's end (undefined: they are on). */
export function controlsOffTitle(denied: string | null | undefined, status: string | undefined, finished: boolean): string | undefined {
  if (denied) return denied;
  if (!finished) return undefined;
  if (status === 'partial') return 'The run has ended: some steps completed, some failed';
  return `The run has ${status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'been stopped'}`;
}

interface ControlProps {
  status: string | undefined;
  denied: string | null | undefined;
  title: string | undefined;
  onControl(action: ControlAction): void;
}

export function PauseResumeButtons({ status, denied, title, onControl }: ControlProps) {
  return (
    <>
      <button className="btn ghost small" disabled={!!denied || status !== 'running'} title={title} onClick={() => onControl('pause')} data-testid="pause">
        Pause
      </button>
      <button className="btn ghost small" disabled={!!denied || status !== 'paused'} title={title} onClick={() => onControl('resume')} data-testid="resume">
        Resume
      </button>
    </>
  );
}

export function StopButton({ status, denied, title, onControl, finished }: ControlProps & { finished: boolean }) {
  return (
    <button className="btn ghost small danger" disabled={!!denied || !status || finished} title={title} onClick={() => onControl('stop')} data-testid="stop">
      Stop
    </button>
  );
}

/** The status pill and, when the run ended badly, why. */
export function RunStatusWords({ status, reason, testId }: { status: string | undefined; reason: string | null | undefined; testId: string }) {
  return (
    <>
      {status && (
        <span className={`pill status-pill status-${status}`} data-testid={testId}>
          {status}
        </span>
      )}
      {reason && (
        <span className="muted small run-reason" title={reason}>
          {reason}
        </span>
      )}
    </>
  );
}
