#!/usr/bin/env bash
# Install stepgrade into a venv, one line per stage and pip's own progress.
#
# Usage: scripts/install.sh VENV [EXTRAS]    e.g. scripts/install.sh .venv dev,bench,ray
# No EXTRAS: what serving needs only (`make serve`). torch comes first, pinned to the CPU wheel
# (a bare `torch` requirement resolves to the multi-GB CUDA build). The local index's notes
# about names it does not hold ("... is ignored: it is neither a file nor a directory") are
# left out of the output; everything else pip says is shown.
set -euo pipefail
venv=$1
extras=${2:-}
python=${PYTHON:-python3}
target=".${extras:+[$extras]}"

stage() { printf '==> %s\n' "$*"; }
pip() {
    "$venv/bin/python" -m pip "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}

if [ ! -x "$venv/bin/python" ]; then
    stage "creating $venv"
    "$python" -m venv "$venv"
fi
if "$venv/bin/python" -m pip show --quiet torch >/dev/null 2>&1; then
    stage "torch is installed"
else
    stage "installing torch 2.13.0 (CPU wheel)"
    pip install --progress-bar on torch==2.13.0
fi
stage "installing stepgrade ($target, editable)"
pip install --progress-bar on -e "$target"
stage "installed into $venv: $(du -sh "$venv" | cut -f1)"
