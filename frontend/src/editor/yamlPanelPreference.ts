// Whether the YAML panel is open: the user's last choice, kept in this browser.
const YAML_PREF = 'ld:show-yaml';

/** The YAML panel: as the user last left it, else open only on wide windows (it squeezes the canvas below ~1440 px). */
export function initialShowYaml(): boolean {
  try {
    const saved = window.localStorage.getItem(YAML_PREF);
    if (saved === '1' || saved === '0') return saved === '1';
  } catch {
    // storage unavailable: fall back to the width
  }
  return window.innerWidth >= 1440;
}

export function rememberShowYaml(show: boolean): void {
  try {
    window.localStorage.setItem(YAML_PREF, show ? '1' : '0');
  } catch {
    // not remembered; still toggled
  }
}

