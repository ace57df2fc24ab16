/** Light/dark switch in the top bar (being built). */
export function ThemeToggle() {
  return null;
}
