#!/usr/bin/env bash
# Makes `rcodesign` (the apple-codesign crate, pinned below) available: the release signs the
# plugin's macOS executables with it, ad hoc, after Node's application blob is joined to them
# (macOS on Apple silicon starts no executable without a valid signature, and Apple's `codesign`
# runs only on macOS). Prints its path as the last line of stdout:
#
#   export PULUMI_IP_RCODESIGN="$(bash scripts/ensure-rcodesign.sh)"
#
# An installed `rcodesign` of the pinned version is used; otherwise it is built with cargo from
# crates.io (about 7 minutes on 2 cores, once) and cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-rcodesign
. "$repo/scripts/lib/ensure.sh"
version=0.29.0

if command -v rcodesign >/dev/null 2>&1 && [ "$(rcodesign --version 2>/dev/null)" = "apple-codesign $version" ]; then
  log "using the installed rcodesign $version"
  command -v rcodesign
  exit 0
fi

root="$cache_root/rcodesign-$version"
mkdir -p "$cache_root"
# One build at a time: CI builds in the background while the release may ask.
exec 9>"$root.lock"
flock 9
if [ -x "$root/bin/rcodesign" ]; then
  log "using the cached rcodesign $version in $root/bin"
  echo "$root/bin/rcodesign"
  exit 0
fi
command -v cargo >/dev/null 2>&1 || { log "rcodesign $version is needed to sign the macOS executables: install it, or a Rust toolchain (cargo) to build it"; exit 1; }
started=$SECONDS
log "building rcodesign $version (apple-codesign, from crates.io; first time only) ..."
staging="$(mktemp -d "${TMPDIR:-/tmp}/rcodesign.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
# No notarization: it needs Apple's servers; signing ad hoc needs none of its features.
CARGO_TARGET_DIR="$staging/target" cargo install "apple-codesign@$version" --locked --no-default-features --root "$staging/root" --quiet >&2 ||
  { log "building rcodesign failed (above)"; exit 1; }
rm -rf "$root"
mv "$staging/root" "$root"
log "rcodesign $version is ready in $root/bin ($((SECONDS - started)) s)"
echo "$root/bin/rcodesign"
