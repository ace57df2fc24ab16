// Imported first by main.tsx. index.html's blocking theme.js has set the palette already; this sets it where that
// file is not served (Vite's dev server), before React renders.
import { applyChoice, browserStorage, readChoice } from './theme';

applyChoice(document.documentElement, readChoice(browserStorage()));
