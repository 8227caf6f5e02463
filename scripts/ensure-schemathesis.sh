#!/usr/bin/env bash
# Makes `schemathesis` available: the property-based API fuzzer from PyPI that test/emulator/fuzz.test.ts
# runs against the emulator's OpenAPI document (docs/emulator.md, "Its API described"). Installed
# with pip into a virtualenv of its own, at the versions tools/schemathesis/requirements.txt pins
# (schemathesis and everything it needs, as `pip freeze` wrote them), and cached in
# $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform), keyed by that file. Prints the
# virtualenv's bin directory as the last line of stdout:
#
#   "$(bash scripts/ensure-schemathesis.sh | tail -n 1)/schemathesis" --version
#
# To move to a newer release: install `schemathesis==<v>` in a fresh virtualenv and write its
# `pip freeze` to tools/schemathesis/requirements.txt.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-schemathesis
. "$repo/scripts/lib/ensure.sh"
die() { log "$*"; exit 1; }

requirements="$repo/tools/schemathesis/requirements.txt"
version="$(sed -n 's/^schemathesis==//p' "$requirements")"
key="$(sha256sum "$requirements" | cut -c1-12)"
dir="$cache_root/schemathesis-$version-$key"
mkdir -p "$cache_root"
# One install at a time: suites may ask at once; the lock is let go when this script exits.
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/.complete" ]; then
  log "using the cached schemathesis $version in $dir"
  echo "$dir/bin"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || die "python3 (3.9 or newer, with venv and pip) is needed to install schemathesis from PyPI"
started=$SECONDS
log "installing schemathesis $version from PyPI into $dir (first time only) ..."
# Made where it stays: a virtualenv's scripts name its path. `.complete` is written last, so an
# install that stopped halfway is made again.
rm -rf "$dir"
python3 -m venv "$dir" >&2 || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
"$dir/bin/pip" install --quiet --disable-pip-version-check --no-input --requirement "$requirements" >&2 ||
  die "pip install of schemathesis $version failed (above)"
date -u +%FT%TZ >"$dir/.complete"
log "schemathesis $version is ready in $dir/bin ($((SECONDS - started)) s)"
echo "$dir/bin"
