"""Watching a big run: ``python bench/liveview.py`` (Chromium, the embedded default).

A forEach of 20,000 items at concurrency 100 with 0.2 s simulated replies is
watched from its start in Chromium at 1440x900, while 50 websocket clients
watch the same run; then the finished run's page is opened again. Measured:

- long tasks on the page's main thread after its first paint (target: none over 100 ms);
- clicks answered: from a click on a tab (or, on the big-run page, a control) to
  the next frame, every second during the run (target: p95 <= 100 ms);
- DOM nodes and JS heap, peak (targets: <= 5,000 nodes, <= 100 MB);
- how long after the server the page says `completed` (target: <= 1 s);
- the header's token total against the server's at the end (target: equal);
- the finished page: from navigation to drawn and interactive (target: <= 1.5 s);
- the 50 clients: latency from an event's timestamp to the message that
  carries it (target: p99 < 250 ms).

Both ways in one run of this script: the view stream (the run page's big-run
mode and ``ws/runs/<id>/view/``), then today's raw event stream (``?raw=1``,
which forces the page to fold every event, and ``ws/runs/<id>/?batch=1``).
``--items`` makes it smaller (the raw page at 20,000 items takes minutes).
The machine is shared: the load average is printed.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.support.browser import FULL_CHROMIUM as CHROMIUM  # noqa: E402
from tests.support.servers import base_env, password_for, running_server  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--enable-precise-memory-info"]
USER = "bench"
INSTRUMENT = """
window.__longtasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
window.__clicks = [];
document.addEventListener('click', (e) => {
  const t0 = e.timeStamp;
  requestAnimationFrame(() => requestAnimationFrame(() => window.__clicks.push(performance.now() - t0)));
}, true);
"""


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))]


def document(items: int) -> str:
    return ("version: 1\nname: big-batch\nsteps:\n  - id: each\n    instructions: Handle one item.\n"
            f"    loop: {{forEach: {json.dumps(list(range(items)))}, maxConcurrency: 100}}\n")


class Watchers:
    """50 websocket clients in a thread of their own: when each message arrived, and the newest seq it carried."""

    def __init__(self, server, run_id: str, path: str, n: int):
        self.url = server.ws_url + path.format(run=run_id)
        self.headers = server.headers(USER)
        self.n = n
        self.arrivals: list[tuple[float, int]] = []  # (wall clock, seq)
        self.done = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _one(self) -> None:
        async with websockets.connect(self.url, additional_headers=self.headers, open_timeout=30, max_size=2**26) as ws:
            final = False
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=2 if final else 300)
                except TimeoutError:
                    return
                now = time.time()
                message = json.loads(raw)
                kind = message.get("kind")
                if kind == "patch":
                    self.arrivals.append((now, message["seq"]))
                elif kind == "event":
                    self.arrivals.append((now, message["event"]["seq"]))
                elif kind == "events" and message["events"]:
                    self.arrivals.append((now, message["events"][-1]["seq"]))
                elif kind == "run" and message["run"]["status"] in ("completed", "partial", "failed", "cancelled"):
                    final = True

    async def _main(self) -> None:
        await asyncio.gather(*(self._one() for _ in range(self.n)), return_exceptions=True)
        self.done.set()

    def latencies(self, stamps: dict[int, float]) -> list[float]:
        return [(arrived - stamps[seq]) * 1000 for arrived, seq in self.arrivals if seq in stamps]


def event_times(client: httpx.Client, run_id: str) -> dict[int, float]:
    out: dict[int, float] = {}
    after = 0
    while True:
        page = client.get(f"/runs/{run_id}/events", params={"after": after}).json()
        for event in page:
            out[event["seq"]] = datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")).timestamp()
        if len(page) < 5000:
            return out
        after = page[-1]["seq"]


def page_tokens(header: str | None) -> int | None:
    """The token total a page shows: the big page's attribute, or the number before "tokens" in the raw page's figures."""
    if header is None:
        return None
    found = re.search(r"([\d,]+) tokens", header) if not header.isdigit() else None
    return int(found.group(1).replace(",", "")) if found else int(header) if header.isdigit() else None


def click_something(page) -> None:
    for selector in ("[role=tab][aria-selected=false]", "[data-testid=events-older]", "[data-testid=failed-item]"):
        target = page.locator(selector).first
        if target.count():
            with contextlib.suppress(Exception):  # a control that went away meanwhile: the next round clicks another
                target.click(timeout=2000)
            return


def watch_run(page, server, client, items: int, raw: bool) -> dict:
    workflow = client.post("/workflows", json={"source": document(items)}).json()
    script = {"latency": 0.2, "replies": {"each": ["done"]}}
    run = client.post("/runs", json={"workflow_id": workflow["id"], "script": script}).json()
    watchers = Watchers(server, run["id"], "/ws/runs/{run}/?batch=1" if raw else "/ws/runs/{run}/view/", 50)
    watchers.thread.start()
    started = time.monotonic()
    page.goto(f"/runs/{run['id']}" + ("?raw=1" if raw else ""))
    nodes, heap = [], []
    server_done = page_done = None
    status_sel = "[data-testid=run-status]" if raw else "[data-testid=big-run-status]"
    while time.monotonic() - started < items * 0.2 / 100 * 6 + 120:
        click_something(page)
        nodes.append(page.evaluate("document.getElementsByTagName('*').length"))
        heap.append(page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0") / 2**20)
        if server_done is None and client.get(f"/runs/{run['id']}").json()["status"] == "completed":
            server_done = time.monotonic()
        if page_done is None:
            with contextlib.suppress(Exception):  # not on the page yet: asked again next round
                if "completed" in (page.locator(status_sel).first.inner_text(timeout=500) or ""):
                    page_done = time.monotonic()
        if server_done and page_done:
            break
        page.wait_for_timeout(1000 if not server_done else 50)
    long_tasks = page.evaluate("""(() => { const p = performance.getEntriesByType('paint')[0];
        const after = p ? p.startTime : 0; return window.__longtasks.filter(t => t[0] >= after).map(t => t[1]); })()""")
    clicks = page.evaluate("window.__clicks")
    final_run = client.get(f"/runs/{run['id']}").json()
    header = None
    with contextlib.suppress(Exception):  # no header shown: the figure is reported as missing
        header = page.locator("[data-testid=big-run-tokens]").first.get_attribute("data-total", timeout=2000) if not raw \
            else page.get_by_test_id("run-figures").inner_text(timeout=2000)
    watchers.done.wait(60)
    stamps = event_times(client, run["id"])
    latencies = watchers.latencies(stamps)
    # The finished page, opened afresh.
    page.goto("about:blank")
    opened = time.monotonic()
    page.goto(f"/runs/{run['id']}" + ("?raw=1" if raw else ""))
    # Drawn: the raw page has applied the last event (it replays them all first); the big page shows the end.
    ready_sel = f"[data-testid=run-page][data-last-seq='{final_run['last_seq']}']" if raw \
        else "[data-testid=big-run][data-status=completed]"
    try:
        page.wait_for_selector(ready_sel, timeout=120_000)
        interactive = (time.monotonic() - opened) * 1000
    except Exception:
        interactive = float("nan")
    return {"events": final_run["last_seq"], "long_max": max(long_tasks or [0]), "long_over_100": sum(1 for t in long_tasks if t > 100),
            "click_p50": pct(clicks, 50), "click_p95": pct(clicks, 95), "nodes": max(nodes or [0]), "heap": max(heap or [0]),
            "lag": (page_done - server_done) if (page_done and server_done) else float("nan"),
            "tokens_server": final_run["tokens"]["total"], "tokens_page": page_tokens(header),
            "finished_ms": interactive, "p99": pct(latencies, 99), "p50": pct(latencies, 50), "messages": len(watchers.arrivals)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=20_000)
    ap.add_argument("--raw-items", type=int, default=None, help="items for the raw-stream run (default: --items)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"live view benchmark: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with running_server(base_env(), users=(USER,)) as server, sync_playwright() as p, server.client(USER) as client:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        ctx = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=server.url)
        page = ctx.new_page()
        page.goto("/login/")
        page.fill("input[name=username]", USER)
        page.fill("input[name=password]", password_for(USER))
        page.locator("form button[type=submit], form input[type=submit]").first.click()
        page.wait_for_load_state("networkidle")
        page.add_init_script(INSTRUMENT)
        results = {"view stream": watch_run(page, server, client, args.items, raw=False),
                   "raw events (today)": watch_run(page, server, client, args.raw_items or args.items, raw=True)}
        browser.close()
    rows = [("events in the run", "events", "{:.0f}", None),
            ("longest task after first paint (ms)", "long_max", "{:.0f}", "<= 100"),
            ("long tasks over 100 ms", "long_over_100", "{:.0f}", "0"),
            ("click -> next frame p50 (ms)", "click_p50", "{:.0f}", None),
            ("click -> next frame p95 (ms)", "click_p95", "{:.0f}", "<= 100"),
            ("DOM nodes, peak", "nodes", "{:.0f}", "<= 5,000"),
            ("JS heap, peak (MB)", "heap", "{:.0f}", "<= 100"),
            ("page says completed after the server (s)", "lag", "{:.2f}", "<= 1"),
            ("tokens: server / page header", None, None, "equal"),
            ("finished page interactive (ms)", "finished_ms", "{:.0f}", "<= 1,500"),
            ("50 clients: latency p50 (ms)", "p50", "{:.0f}", None),
            ("50 clients: latency p99 (ms)", "p99", "{:.0f}", "< 250"),
            ("50 clients: messages received", "messages", "{:.0f}", None)]
    names = list(results)
    print(f"{'':44}" + "".join(f"{n:>22}" for n in names) + "   target")
    for label, key, fmt, target in rows:
        if key is None:
            cells = [f"{r['tokens_server']} / {r['tokens_page']}" for r in results.values()]
        else:
            cells = [fmt.format(r[key]) if isinstance(r[key], (int, float)) else str(r[key]) for r in results.values()]
        print(f"{label:44}" + "".join(f"{c:>22}" for c in cells) + f"   {target or ''}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
