// Imported first by main.tsx: the stored theme is on <html> before React renders, so a chosen palette does not
// flash the system's first. (An inline script in index.html would run sooner, but the Content-Security-Policy
// forbids inline scripts.)
import { applyChoice, browserStorage, readChoice } from './theme';

applyChoice(document.documentElement, readChoice(browserStorage()));
