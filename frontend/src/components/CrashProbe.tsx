/**
 * Lets the test suite prove the editor's safety net: with `ld:crash-probe` set to this probe's name in
 * sessionStorage, rendering throws as a real bug would. Nobody sets it by accident, and it can only
 * break the page of the person who set it.
 */
export function CrashProbe({ name }: { name: string }) {
  if (probeWanted() === name) throw new Error(`crash probe '${name}' (set by a test)`);
  return null;
}

function probeWanted(): string | null {
  try {
    return window.sessionStorage.getItem('ld:crash-probe');
  } catch {
    return null; // storage unavailable: no probe
  }
}
