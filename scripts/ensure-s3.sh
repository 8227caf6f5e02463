#!/usr/bin/env bash
# Makes a real S3-compatible object store available: `versitygw` (the Versity S3 Gateway), whose
# `posix` backend serves buckets from plain directories. The tests and benchmarks start it (see
# harness/s3.ts) as the store behind Pulumi's self-managed backend, `pulumi login s3://...`,
# so that what they prove about s3:// state (locking, `pulumi cancel`, `state move`) is proven
# against the S3 protocol itself and the CLI's own gocloud.dev/AWS SDK client, not a mock.
# Prints the directory holding `versitygw` as the last line of stdout (progress goes to stderr):
#
#   "$(bash scripts/ensure-s3.sh | tail -n 1)/versitygw" --access KEY --secret SECRET \
#       --port 127.0.0.1:PORT posix DIR
#
# The version is the one tools/s3/go.mod pins. It is built from Go modules and cached in
# $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform), keyed by that version and
# by the exact module graph (go.sum); one build at a time (a lock file), moved into place in one
# rename, so concurrent callers build once and nobody sees half a build.
#
# Why a build: no package registry these machines reach ships an S3 server binary. Why versitygw
# rather than MinIO: a tagged release on the Go proxy (MinIO only has pseudo-versions), and from
# an empty Go cache it builds in about 1.5 minutes on 2 cores into a 45 MB binary, where MinIO
# takes over 3.5 minutes and 112 MB.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$repo/tools/s3"
ensure_name=ensure-s3
. "$repo/scripts/lib/ensure.sh"
die() {
  log "$*"
  log "versitygw v${version:-?} is needed and could not be built: install Go ${go_needed:-1.25} or newer and run this script again (about 2 minutes, once; later runs use the cache)."
  exit 1
}

version="$(required_version "$tools/go.mod" github.com/versity/versitygw)"
go_needed="$(awk '$1 == "go" { print $2; exit }' "$tools/go.mod")"
[ -n "$version" ] || die "could not read the versitygw version from tools/s3/go.mod"

# 1. The cache. The lock is taken before looking, so that a caller arriving during a build waits
#    for it and then finds its result instead of starting a second one.
key="$(cat "$tools/go.mod" "$tools/go.sum" | sha256sum | cut -c1-12)"
dir="$cache_root/s3-versitygw-v$version-$key"
mkdir -p "$cache_root"
exec 9>"$dir.lock"
flock 9
if [ -x "$dir/versitygw" ]; then
  log "using the cached versitygw v$version in $dir"
  echo "$dir"
  exit 0
fi

# 2. Build, into a directory beside the final one (same file system, so the move is a rename).
command -v go >/dev/null 2>&1 || die "no Go toolchain to build versitygw with"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
staging="$(mktemp -d "$cache_root/.s3-build.XXXXXX")"
chmod 0755 "$staging" # mktemp makes it private; the cache entries are readable like the others
trap 'rm -rf "$staging"' EXIT
started=$SECONDS
log "building versitygw v$version from Go modules (first time only, about 2 minutes) ..."
# `go build -v` names each package as it compiles; a count every 100 shows progress without
# flooding CI logs. The version is stamped as the project's Makefile does, for `--version`.
if ! (cd "$tools" && go build -v -trimpath \
      -ldflags "-s -w -X main.Version=v$version -X main.Build=go-proxy -X main.BuildTime=none" \
      -o "$staging/" github.com/versity/versitygw/cmd/versitygw 2>&1) | awk '
        /^go: downloading / { d++; if (d % 50 == 0) { printf "ensure-s3:   %d modules downloaded\n", d; fflush() } next }
        /^(go: |#|.*\.go:[0-9]+)/ { print; next }
        { n++; if (n % 100 == 0) { printf "ensure-s3:   %d packages compiled\n", n; fflush() } }
      ' >&2; then
  die "building versitygw failed (see the lines above)"
fi
[ -x "$staging/versitygw" ] || die "building versitygw produced no binary (see the lines above)"
"$staging/versitygw" --version >/dev/null || die "the built versitygw does not run"
log "built versitygw v$version in $((SECONDS - started)) s"

rm -rf "$dir"
mv "$staging" "$dir"
trap - EXIT
log "versitygw v$version is ready in $dir"
echo "$dir"
