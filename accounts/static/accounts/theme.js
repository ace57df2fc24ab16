// The theme the user chose in the app's top bar (frontend/src/theme/theme.ts, same key), applied before the page
// paints: a blocking file in <head>, since the Content-Security-Policy forbids inline scripts.
(function () {
  var choice = null;
  try {
    choice = window.localStorage.getItem('ld:theme');
  } catch (e) {
    // no storage: the system's scheme applies
  }
  if (choice === 'light' || choice === 'dark') document.documentElement.setAttribute('data-theme', choice);
})();
