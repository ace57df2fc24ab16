// The palette on <html data-theme>, before the page paints: the choice made in the app's top bar
// (frontend/src/theme/theme.ts, same key) or, with none, the system's scheme, followed while it changes.
// The stylesheets hold one dark palette, under [data-theme='dark'], so this attribute is always set.
// A blocking file in <head> of every page (the app's index.html too), since the Content-Security-Policy
// forbids inline scripts.
(function () {
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function stored() {
    try {
      var choice = window.localStorage.getItem('ld:theme');
      return choice === 'light' || choice === 'dark' ? choice : null;
    } catch (e) {
      return null; // no storage: the system's scheme applies
    }
  }
  function apply() {
    root.setAttribute('data-theme', stored() || (system && system.matches ? 'dark' : 'light'));
  }
  apply();
  if (system && system.addEventListener) system.addEventListener('change', apply);
})();
