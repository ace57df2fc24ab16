"""What tests import: every module here says what it holds. Tests never import one another (nor a conftest.py):
what two test modules share moves here, fixtures go to a conftest.py. Fakes of outside services are in
tests/fakes, files tests read or run (seeds, MCP servers) in tests/fixtures. tests/house/test_test_bench.py holds
these rules and that this list names every module.

settings                 the suite's Django settings: the app's, with a temporary data folder (pytest.ini)
upstream_spec            the upstream zenflow spec beside the checkout: conformance cases, examples
documents                workflow documents: a judged loop and its replies, a polish loop
ported_workflows         workflows ported from upstream's runner tests, run by the engine and over HTTP
engine_runs              runs of the engine in process: documents from YAML, a run with its events, what they say
debugging                engine runs held at breakpoints: a sink that answers each hold with a test's commands
checkpoints              runs checked boundary by boundary; ten judged rounds to resume and fork from
conversations            runs that talk while they work, to resume and fork from; what became of each message
imported_seeds           the importers' seed files and what their tests check of the documents
import_api_urls          a URLconf with the import and template routers alone
api_calls                the REST API through Django's test client: a JSON post, the wait for a run to finish
evaluations              datasets and experiments over the API and from a browser page, the wait for an experiment, a
                         workflow with a dataset and finished experiments; a fake OpenAI judge a new prompt changes
zips                     zips built in memory, uploaded as workflow bundles
snapshots                workspace snapshots as a lost worker left them
servers                  real processes: a server, a Celery worker, a fresh PostgreSQL database and Redis db
server_settings          the settings of the servers and commands servers.py starts: the app's, a fast hasher
races                    many requests at once, released together from threads, with room in the document checks
live_runs                runs on a live server over HTTP and websockets
provider_clients         provider clients opened against the fakes and closed after the test, a one-agent workflow
                         that reads a file and answers, a chat request
faults                   a Redis and a PostgreSQL of a test's own to restart, the OOM killer, reconnecting watchers
browser                  Chromium for tests/e2e, the API called with a signed-in page, a sign-in to a test's own server
editor_page              the editor in the browser: workflows to type, the YAML panel, the run dialog's script
run_pages                runs started from the browser: any workflow, a slow polish loop, a finished run, the wait for an end
team_members             members of a team workspace who joined with a role through an invitation, each in a browser
accessibility            axe-core's audit of a page, worded
layout_check             whether a page's layout holds: controls in their box, no text cut without a title
content_security_policy  a watch on a page's Content-Security-Policy and its violations
every_test_reported      a pytest plugin: a run over xdist workers fails when a collected test never reported
"""
