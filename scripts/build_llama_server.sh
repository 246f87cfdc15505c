#!/usr/bin/env bash
# Builds llama.cpp's own C++ `llama-server` once and caches it, like pip caches a wheel.
#
# Why this server for `make test-llm`: it samples the grammar of a structured answer in C++
# (llama-cpp-python's server does it in Python, about half its time per token with Gemma's 262k
# vocabulary), and it accepts `json_schema` (llama-cpp-python's answers it with HTTP 500). It
# stops a streamed request whose client left at its next token, but may run a non-streamed one
# on to its `max_tokens` (agent/llm/client.py says when): stepgrade streams. The source is the
# llama.cpp that llama-cpp-python's sdist vendors, so the server is the same llama.cpp the
# Python package would build.
#
# Usage: build_llama_server.sh VERSION CACHE_DIR PYTHON
#   VERSION    llama-cpp-python's version, whose sdist gives the source (e.g. 0.3.36)
#   CACHE_DIR  where the binary goes: CACHE_DIR/llama-server-VERSION/llama-server
#   PYTHON     a Python with pip, to download the sdist
# Prints the binary's path. Static (no shared libraries to carry), no CPU-specific code
# (GGML_NATIVE=OFF), no network at build time (no curl, no prebuilt web UI), no HTTPS.
set -euo pipefail
version=$1 cache=$2 python=$3
target="$cache/llama-server-$version"
binary="$target/llama-server"
if [ -x "$binary" ] && "$binary" --version >/dev/null 2>&1; then
    echo "$binary"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "build_llama_server: building llama-server from llama-cpp-python $version's sdist" \
    "(about 15 min on 2 cores, once; cached in $target)" >&2
"$python" -m pip download --quiet --no-deps --no-binary :all: \
    "llama-cpp-python==$version" -d "$work" >&2
tar -xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
source="$work/llama_cpp_python-$version/vendor/llama.cpp"
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$source" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >&2
cmake --build "$work/build" --target llama-server -j"$jobs" >&2
mkdir -p "$target"
cp "$work/build/bin/llama-server" "$binary.tmp"
mv "$binary.tmp" "$binary"
echo "$binary"
