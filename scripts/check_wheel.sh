#!/usr/bin/env bash
# The wheel as a user gets it: built from this checkout, installed in a fresh venv (torch first,
# the local CPU wheel; then the wheel with the `bench` extra), and used from OUTSIDE the source
# tree, so a module or a data file that only a checkout has fails here:
# - `stepgrade serve` answers GET /review with the review page and GET /examples with the bundled
#   examples (package data);
# - `stepgrade bench --help` finds the runner through its entry point;
# - `stepgrade study list` names the studies, and `stepgrade study service_bench --help` and
#   `python -m eval_sets.studies.service_bench --help` run (its fake LLM is in the wheel).
#
# Usage: scripts/check_wheel.sh   (PYTHON picks the interpreter for the venv; default python3)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "check_wheel: building the wheel and a fresh venv in $work"
# A copy of the tracked and new files: setuptools builds in the tree it is given, and a stale
# build/ of the checkout could carry a removed module into the wheel.
mkdir "$work/src"
git -C "$src" ls-files -z --cached --others --exclude-standard \
    | (cd "$src" && xargs -0 cp --parents -t "$work/src" 2>/dev/null || true)
"$python" -m venv "$work/venv"
pip() {  # quiet, less the local index's notes about names it does not hold
    "$work/venv/bin/python" -m pip "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}
pip install --quiet torch==2.13.0
pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$work/src"
wheel=$(ls "$work/dist"/stepgrade-*.whl)
pip install --quiet "${wheel}[bench]"

cd "$work"  # no source tree on sys.path from here on
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
location=$("$work/venv/bin/python" -c "import server, eval_sets; print(server.__file__, eval_sets.__file__)")
case "$location" in
    *"$src"*) echo "check_wheel: FAIL: imported from the checkout ($location)"; exit 1 ;;
esac

"$work/venv/bin/stepgrade" bench --help >/dev/null
"$work/venv/bin/stepgrade" study list | grep "^service_bench " >/dev/null \
    || { echo "check_wheel: FAIL: stepgrade study list does not name service_bench"; exit 1; }
"$work/venv/bin/stepgrade" study service_bench --help >/dev/null
"$work/venv/bin/python" -m eval_sets.studies.service_bench --help >/dev/null

port=$("$work/venv/bin/python" -c "from eval_sets.processes import free_port; print(free_port())")
STEPGRADE_LOG_LEVEL=warning "$work/venv/bin/stepgrade" serve --port "$port" >"$work/serve.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 300); do
    if curl -fsS "$base/healthz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "check_wheel: FAIL: stepgrade serve exited"; cat "$work/serve.log"; exit 1
    fi
    sleep 1
done
page=$(curl -fsS "$base/review")
case "$page" in
    *"<title>stepgrade · review a graded solution</title>"*) ;;
    *) echo "check_wheel: FAIL: GET /review did not serve the review page"; exit 1 ;;
esac
examples=$(curl -fsS "$base/examples" | "$work/venv/bin/python" -c \
    "import json, sys; print(' '.join(e['name'] for e in json.load(sys.stdin)))")
[ -n "$examples" ] || { echo "check_wheel: FAIL: GET /examples served no example"; exit 1; }
echo "check_wheel: ok: $(basename "$wheel") serves /review and /examples ($examples) from outside the source tree; stepgrade bench and stepgrade study service_bench run"
