"""A watch on a browser page's Content-Security-Policy: the policy each document was served with, and every
violation (the page's `securitypolicyviolation` events and Chromium's console lines about the policy)."""
from __future__ import annotations

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const seen = {directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample,
                where: e.sourceFile + ':' + e.lineNumber, page: location.pathname};
  window.__cspViolations.push(seen);
  if (window.__reportCspViolation) window.__reportCspViolation(seen);
}, true);
"""


class Watcher:
    def __init__(self, page):
        self.page = page
        self.events: list[dict] = []
        self.console: list[str] = []
        self.policies: dict[str, str] = {}
        page.expose_function("__reportCspViolation", lambda seen: self.events.append(seen))
        page.add_init_script(WATCH)
        page.on("console", lambda m: self.console.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("response", self._document)

    def _document(self, response) -> None:
        if response.request.resource_type == "document" and not 300 <= response.status < 400:
            self.policies[response.url] = response.headers.get("content-security-policy", "")

    def in_page(self) -> list[dict]:
        return self.page.evaluate("window.__cspViolations")

    def assert_clean(self) -> None:
        assert self.policies, "no page was loaded"
        for url, header in self.policies.items():
            policy = directives(header)
            assert policy.get("default-src") == ["'self'"], f"{url}: {header!r}"
            assert policy.get("script-src") == ["'self'"], f"{url}: {header!r}"
            assert policy.get("connect-src") == ["'self'"] and policy.get("object-src") == ["'none'"], f"{url}: {header!r}"
        assert self.events == [] and self.in_page() == []
        assert self.console == []


def directives(header: str) -> dict[str, list[str]]:
    parts = (d.split() for d in header.split(";") if d.strip())
    return {name: sources for name, *sources in parts}
