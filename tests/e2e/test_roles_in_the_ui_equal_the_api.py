"""Roles in the UI equal roles in the API, per role (owner, admin, editor, runner, viewer) over every page: the
workflows list, the editor, the version comparison, a finished run, a running run, a big run, the run comparison,
the runs list, a workflow's Evaluations page (a dataset and a finished experiment) and an experiment's run with its
judged rounds to label, and the workspace's settings and members. A control the role cannot use is hidden, or disabled with a title giving
the reason; one it can use is enabled. And the API agrees: the same actions answer 403 exactly where the page
holds the control back.

The team, its workflow, runs and members are made once for the module; each role's browser is signed in as a
member who joined through an invitation."""
from __future__ import annotations

import pytest

from tests.support.browser import VIEWPORT, api, csrf
from tests.support.evaluations import evaluations_with_results
from tests.support.team_members import sign_up_member

RANK = {"viewer": 0, "runner": 1, "editor": 2, "admin": 3, "owner": 4}
NEEDS = {"read": 0, "run": 1, "edit": 2, "manage": 3, "server": 99}  # server: the server's owner alone (a superuser)
ROLES = ["owner", "admin", "editor", "runner", "viewer"]

WORKFLOW = """name: role-check
steps:
  - id: draft
    instructions: Write.
  - id: polish
    dependsOn: [draft]
    instructions: Polish.
"""
QUICK = {"replies": {"*": ["done"]}}
SLOW = {"latency": 600, "replies": {"*": ["done"]}}
BIG = ("version: 1\nname: role-big\nsteps:\n  - id: each\n    instructions: go\n"
       f"    loop: {{forEach: {list(range(600))}, maxConcurrency: 1}}\n")


def wait_run(page, run_id: str, statuses: tuple[str, ...]) -> None:
    page.wait_for_function(
        """async ([id, wanted]) => {
             const r = await fetch(`/api/v1/runs/${id}`); return r.ok && wanted.includes((await r.json()).status);
           }""", arg=[run_id, list(statuses)], polling=250, timeout=90_000)


@pytest.fixture(scope="module")
def scene(browser, server, auth_state):
    """The owner's team with a workflow of two versions, two finished runs, a running run and a big running run, a
    judged workflow with a dataset and a finished experiment; and a signed-in browser context per role."""
    owner = browser.new_context(viewport=VIEWPORT, base_url=server, storage_state=auth_state)
    page = owner.new_page()
    page.set_default_timeout(45_000)
    page.goto("/")
    team = api(page, "POST", "/workspaces", {"name": "Role check"})
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW, "workspace_id": team["id"]})
    api(page, "PUT", f"/workflows/{wf['id']}", {"source": WORKFLOW.replace("Polish.", "Polish twice.")})
    finished = [api(page, "POST", "/runs", {"workflow_id": wf["id"], "script": QUICK})["id"] for _ in range(2)]
    running = api(page, "POST", "/runs", {"workflow_id": wf["id"], "script": SLOW})["id"]
    big_wf = api(page, "POST", "/workflows", {"source": BIG, "workspace_id": team["id"]})
    big = api(page, "POST", "/runs", {"workflow_id": big_wf["id"], "script": {"latency": 1, "replies": {"each": ["ok"]}}})["id"]
    for run_id in finished:
        wait_run(page, run_id, ("completed",))
    evals = evaluations_with_results(page, "role-evals", workspace_id=team["id"], experiments=1)
    evals["trial_run"] = api(page, "GET", f"/experiments/{evals['experiments'][0]}")["trials"][0]["run_id"]
    contexts = {"owner": owner}
    try:
        for role in ROLES[1:]:
            contexts[role] = sign_up_member(page, browser, server, team["id"], role, f"role-{role}")
        yield {"team": team["id"], "workflow": wf["id"], "finished": finished, "running": running, "big": big,
               "evals": evals,
               "contexts": contexts, "owner_page": page}
    finally:
        for run_id in (running, big):
            page.request.post(f"/api/v1/runs/{run_id}/stop", headers={"X-CSRFToken": csrf(page), "Referer": server + "/"})
        for ctx in contexts.values():
            ctx.close()


def allowed(role: str, need: str) -> bool:
    return RANK[role] >= NEEDS[need]


def control_states(page, selector: str) -> list[dict]:
    """Each element the selector finds: whether it is off (disabled, read-only, or in a disabled fieldset) and its title."""
    return page.locator(selector).evaluate_all(
        """els => els.map(e => ({
             off: !!(e.disabled || e.readOnly || e.getAttribute('aria-disabled') === 'true' || e.closest('fieldset:disabled')),
             title: e.getAttribute('title') || '', text: (e.innerText || e.value || '').trim().slice(0, 40)}))""")


def check(page, role: str, where: str, selector: str, need: str, problems: list[str], titled: bool = True) -> None:
    """``titled``: an off control says why in its title (False: the page says it once, as the editor's banner does)."""
    found = control_states(page, selector)
    if allowed(role, need):
        if not found:
            problems.append(f"{where}: {selector} is missing for {role}, who may {need}")
        problems.extend(f"{where}: {selector} ({s['text']!r}) is off for {role}, who may {need}: {s['title']!r}"
                        for s in found if s["off"])
    else:
        # Hidden is fine; shown, it must be off and say why (the role).
        problems.extend(f"{where}: {selector} ({s['text']!r}) is usable by {role}, who may not {need}"
                        for s in found if not s["off"])
        problems.extend(f"{where}: {selector} ({s['text']!r}) is off for {role} without a reason naming the role: {s['title']!r}"
                        for s in found if titled and s["off"] and "role" not in s["title"].lower() and "owner" not in s["title"].lower())


def other_member(role: str) -> str:
    """A member below admin who is not the one looking: whose role an admin may change and whom an admin may remove."""
    return "role-editor" if role == "viewer" else "role-viewer"


def visit(page, path: str, ready: str) -> None:
    page.goto(path)
    page.wait_for_selector(ready)


@pytest.mark.parametrize("role", ROLES)
def test_every_page_offers_a_role_what_the_api_allows_it(scene, role):
    page = scene["contexts"][role].new_page()
    page.set_default_timeout(45_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    team, wid = scene["team"], scene["workflow"]
    problems: list[str] = []
    try:
        # The workflows list: new, the imports, delete, and restore in a row's history.
        visit(page, f"/?workspace={team}", "[data-testid=workflow-table] >> text=role-check")
        for selector in ("a.btn:has-text('New workflow'), [data-testid=new-workflow-disabled]", "[data-testid=import-folder]",
                         "[data-testid=import-other]", "button:has-text('Import a file')"):
            check(page, role, "list", selector, "edit", problems)
        page.locator("[data-testid=template-gallery] .tpl-actions button").first.wait_for()
        check(page, role, "list templates", "[data-testid=template-gallery] button[aria-label^='Open ']", "edit", problems)
        row = page.locator("[data-testid=workflow-table] tr", has_text="role-check").first
        check(page, role, "list", "[data-testid=workflow-table] tr:has-text('role-check') button:has-text('Delete')", "edit", problems)
        row.get_by_role("button", name="History").click()
        page.locator("[data-testid=versions] li").nth(1).wait_for()
        check(page, role, "list history", "[data-testid=versions] [data-testid^=restore-]", "edit", problems)

        # The editor: save, import, the palette and the inspector for editors; run for runners.
        visit(page, f"/workflows/{wid}", "[data-testid=editor][data-ready='1']")
        page.wait_for_selector("[data-testid=validity]:text-is('valid')")  # Run waits for the server's verdict
        for selector in ("[data-testid=save]", "[data-testid=import]", ".palette button"):
            check(page, role, "editor", selector, "edit", problems)
        check(page, role, "editor", ".insp-fieldset", "edit", problems, titled=False)  # the read-only banner says why
        check(page, role, "editor", "[data-testid=run]", "run", problems)
        if not allowed(role, "edit"):
            banner = page.get_by_test_id("read-only-banner").inner_text()
            if role not in banner:
                problems.append(f"editor: the read-only banner does not name the role {role}: {banner!r}")
        page.get_by_role("tab", name="Files").click()
        page.get_by_test_id("folder-panel").wait_for()
        check(page, role, "editor files", "[data-testid=folder-new-file]", "edit", problems)

        # Two versions compared: restore.
        visit(page, f"/workflows/{wid}/compare?a=1&b=2", "[data-testid=compare-summary]")
        check(page, role, "version compare", "[data-testid=restore-1]", "edit", problems)

        # A finished run: edit and run, run again.
        visit(page, f"/runs/{scene['finished'][0]}", "[data-testid=run-status]:text('completed')")
        for selector in ("[data-testid=edit-and-run]", "[data-testid=run-again]"):
            check(page, role, "finished run", selector, "run", problems)

        # A running run: pause and stop.
        visit(page, f"/runs/{scene['running']}", "[data-testid=run-status]:text('running')")
        for selector in ("[data-testid=pause]", "[data-testid=stop]"):
            check(page, role, "running run", selector, "run", problems)

        # A big run, running: pause and stop on its own header.
        visit(page, f"/runs/{scene['big']}", "[data-testid=big-run][data-status=running]")
        for selector in ("[data-testid=big-run] [data-testid=pause]", "[data-testid=big-run] [data-testid=stop]"):
            check(page, role, "big run", selector, "run", problems)

        # Two runs compared: readable by all, with nothing that changes anything on it.
        visit(page, f"/runs/{scene['finished'][0]}/compare/{scene['finished'][1]}", "[data-testid=run-compare]")
        check(page, role, "run compare", "[data-testid=run-again], [data-testid^=restore-], [data-testid=stop]", "server", problems)

        # The runs list: picking two runs to compare is reading; nothing on it starts, stops or deletes a run.
        visit(page, f"/runs?workspace={team}", "[data-testid=run-table] >> text=role-check")
        check(page, role, "runs list", "[data-testid=pick-run]", "read", problems)
        rows = page.locator("[data-testid=run-table] tr", has_text="role-check")
        rows.nth(0).get_by_test_id("pick-run").check()
        rows.nth(1).get_by_test_id("pick-run").check()
        page.get_by_test_id("compare-bar").wait_for()
        check(page, role, "runs list", "[data-testid=compare-picked]", "read", problems)
        check(page, role, "runs list", "[data-testid=run-again], [data-testid=stop], [data-testid=pause], "
                                       "[data-testid=run-table] button:has-text('Delete')", "server", problems)

        # A workflow's Evaluations page: new datasets for editors; experiments, labels and re-scoring for runners.
        evals = scene["evals"]
        visit(page, f"/workflows/{evals['workflow']}/evaluations?experiment={evals['experiments'][0]}",
              "[data-testid=experiment-results] h2:has-text('completed')")
        page.get_by_test_id("datasets").locator("tbody tr").first.wait_for()
        # The page and its judge panel hold back what the role cannot do once the workflow has said the role.
        page.locator(f"[data-testid=evaluations-page][data-role={role}] [data-testid=judge-rescore][data-role={role}]").wait_for()
        page.get_by_test_id("evaluations-page").locator("summary", has_text="New dataset").click()
        check(page, role, "evaluations", "[data-testid=create-dataset]", "edit", problems)
        check(page, role, "evaluations", "[data-testid=start-experiment]", "run", problems)
        check(page, role, "evaluations", "[data-testid=label-rounds]", "run", problems)
        check(page, role, "evaluations", "[data-testid=rescore]", "run", problems)

        # An experiment's run: its judged rounds are labelled by runners and above.
        visit(page, f"/runs/{evals['trial_run']}", "[data-testid=run-status]:text('completed')")
        if not allowed(role, "run"):
            page.get_by_test_id("run-watch-only").wait_for()  # the role is known on the page: its controls are held back
        page.get_by_test_id("run-tab-rounds").click()
        page.get_by_test_id("round-focus").wait_for()
        check(page, role, "experiment run rounds", "[data-testid=round-focus] button", "run", problems)

        # Settings and members: name, invitations, keys, limits, tracing, a member's role and removal; the server's keys.
        visit(page, f"/workspaces/{team}", "[data-testid=ws-members]")
        page.locator("[data-testid=ws-tracing-form]").wait_for()  # loaded on its own
        for selector in ("[data-testid=ws-name-input]", "[data-testid=ws-invite-create]", "[data-testid=ws-key-save]",
                         "[data-testid=ws-limits-save]", "[data-testid=ws-tracing-save]",
                         f"[data-testid=ws-member-row][data-username={other_member(role)}] [data-testid=ws-member-role]",
                         f"[data-testid=ws-member-row][data-username={other_member(role)}] [data-testid=ws-member-remove]"):
            check(page, role, "settings", selector, "manage", problems)
        check(page, role, "settings", "[data-testid=ws-server-keys-toggle]", "server", problems)
        if not allowed(role, "manage"):
            limits = control_states(page, "[data-testid^=ws-limit-]")
            if not limits or not all(s["off"] for s in limits):
                problems.append(f"settings: the limits are editable by {role}: {limits}")
            page.get_by_text("Only admins and owners change the limits.").wait_for()

        # The API holds the same lines.
        headers = {"X-CSRFToken": csrf(page), "Content-Type": "application/json", "Referer": page.url}
        asks = [
            ("edit", "PUT", f"/api/v1/workflows/{wid}/file", {"path": f"notes/{role}.txt", "text": role}),
            ("edit", "POST", "/api/v1/datasets", {"workflow_id": evals["workflow"], "name": f"by {role}"}),
            ("run", "POST", "/api/v1/runs", {"workflow_id": wid, "script": QUICK}),
            ("run", "PUT", f"/api/v1/runs/{evals['trial_run']}/rounds/dev/0/label", {"good": True}),
            ("manage", "POST", f"/api/v1/workspaces/{team}/invitations", {"role": "viewer"}),
            ("server", "PUT", f"/api/v1/workspaces/{team}/server-keys", {"granted": True}),
        ]
        for need, method, path, body in asks:
            answer = page.request.fetch(path, method=method, headers=headers, data=body)
            if allowed(role, need) != answer.ok:
                problems.append(f"API: {method} {path} answered {answer.status} to {role} (may {need}: {allowed(role, need)})")
            elif not answer.ok and answer.status != 403:
                problems.append(f"API: {method} {path} refused {role} with {answer.status}, not 403")
    finally:
        page.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors
