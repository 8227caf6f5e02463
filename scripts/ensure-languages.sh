#!/usr/bin/env bash
# Makes the Python, Go, YAML and Java language hosts available, as ensure-pulumi.sh does the CLI and
# the Node.js host: `pulumi-language-python` (a shim of ours in front of the host, and its
# `pulumi-language-python-exec` script), `pulumi-language-go`, `pulumi-language-yaml` and
# `pulumi-language-java`. Prints the directory holding them as the last line of stdout (progress
# goes to stderr):
#
#   export PATH="$(bash scripts/ensure-languages.sh):$(bash scripts/ensure-pulumi.sh):$PATH"
#
# A user's installed hosts are used: when all four are on PATH, that directory is printed
# (the official CLI ships them beside `pulumi`). Otherwise they are built from the Go modules
# pinned in tools/pulumi/language-{python,go,yaml,java} and cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform), keyed by their go.sum files. docs/design/languages.md
# says why these versions.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-languages
. "$repo/scripts/lib/ensure.sh"
hosts=(python go yaml java)

# 1. Installed: all three in one directory on PATH.
if command -v pulumi-language-python >/dev/null 2>&1 && command -v pulumi-language-go >/dev/null 2>&1 && command -v pulumi-language-yaml >/dev/null 2>&1 && command -v pulumi-language-java >/dev/null 2>&1; then
  dir="$(dirname "$(command -v pulumi-language-yaml)")"
  if [ -x "$dir/pulumi-language-python" ] && [ -x "$dir/pulumi-language-go" ] && [ -x "$dir/pulumi-language-java" ]; then
    log "using the installed language hosts in $dir"
    echo "$dir"
    exit 0
  fi
fi

# 2. The cache. One build at a time: a second caller (CI builds in the background while the tests
#    may ask) waits for the first, then finds its result.
key="$(for h in "${hosts[@]}"; do cat "$repo/tools/pulumi/language-$h/go.sum"; done | cat - "$repo/tools/pulumi/language-python/shim/main.go" | sha256sum | cut -c1-12)"
bin="$cache_root/language-hosts-$key/bin"
mkdir -p "$cache_root"
exec 9>"$cache_root/language-hosts-$key.lock"
flock 9
if [ -x "$bin/pulumi-language-python" ] && [ -x "$bin/pulumi-language-python-host" ] && [ -x "$bin/pulumi-language-go" ] && [ -x "$bin/pulumi-language-yaml" ] && [ -x "$bin/pulumi-language-java" ] && [ -x "$bin/pulumi-language-python-exec" ]; then
  log "using the cached language hosts in $bin"
  echo "$bin"
  exit 0
fi

# 3. Build.
command -v go >/dev/null 2>&1 || { log "no language hosts on PATH and no Go toolchain to build them (Go 1.25.11 or newer)"; exit 1; }
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
staging="$(mktemp -d "${TMPDIR:-/tmp}/language-hosts.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
build() { # <host> <package> <module whose version is stamped>
  local started=$SECONDS version
  version="$(required_version "$repo/tools/pulumi/language-$1/go.mod" "$3")"
  log "building pulumi-language-$1 v$version from Go modules (first time only) ..."
  (cd "$repo/tools/pulumi/language-$1" && go build -trimpath -ldflags "-s -w" -o "$staging/" "$2") >&2 || { log "building pulumi-language-$1 failed (above)"; exit 1; }
  log "built pulumi-language-$1 in $((SECONDS - started)) s"
}
build python github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python github.com/pulumi/pulumi/sdk/v3
build go github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go github.com/pulumi/pulumi/sdk/v3
build yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml github.com/pulumi/pulumi-yaml
build java github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java github.com/pulumi/pulumi-java/pkg
# The v3.68 Python host reads Pulumi.yaml's `virtualenv` only as a flag, which today's engines no
# longer pass: it is installed as pulumi-language-python-host, behind a shim of ours that passes it
# (tools/pulumi/language-python/shim, docs/design/languages.md).
mv "$staging/pulumi-language-python" "$staging/pulumi-language-python-host"
(cd "$repo/tools/pulumi/language-python" && go build -trimpath -ldflags "-s -w" -o "$staging/pulumi-language-python" ./shim) >&2 || { log "building the pulumi-language-python shim failed (above)"; exit 1; }
# The Python host runs programs through this script, which ships in the same module as the host.
python_version="$(required_version "$repo/tools/pulumi/language-python/go.mod" github.com/pulumi/pulumi/sdk/v3)"
exec_script="$(cd "$repo/tools/pulumi/language-python" && go env GOMODCACHE)/github.com/pulumi/pulumi/sdk/v3@v$python_version/python/cmd/pulumi-language-python-exec"
install -m 0755 "$exec_script" "$staging/pulumi-language-python-exec"

mkdir -p "$(dirname "$bin")"
rm -rf "$bin.tmp.$$"
mv "$staging" "$bin.tmp.$$"
trap - EXIT
rm -rf "$bin"
mv "$bin.tmp.$$" "$bin"
log "the language hosts are ready in $bin"
echo "$bin"
