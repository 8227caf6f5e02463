#!/usr/bin/env bash
# Generates the SDKs from sdk/schema.json with Pulumi's own code generators (tools/sdkgen):
# sdk/nodejs, sdk/python, sdk/go and sdk/dotnet. Never edit them by hand: change the definitions,
# run `npm run gen:schema`, then this script, and commit all of it.
#
#   bash scripts/gen-sdk.sh           regenerate sdk/<language>
#   bash scripts/gen-sdk.sh --check   fail (exit 1, with a diff) when the checked-in SDKs differ
#
# sdkgen is built from Go modules once and cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform), keyed by tools/sdkgen's go.sum and main.go.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf 'gen-sdk: %s\n' "$*" >&2; }
check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) log "unknown argument '$1': use --check, or nothing"; exit 2 ;;
esac

key="$(cat "$repo/tools/sdkgen/go.sum" "$repo/tools/sdkgen/go.mod" "$repo/tools/sdkgen/main.go" | sha256sum | cut -c1-12)"
cache_root="${PULUMI_IP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-integration-platform}"
sdkgen="$cache_root/sdkgen-$key/sdkgen"
if [ ! -x "$sdkgen" ]; then
  command -v go >/dev/null 2>&1 || { log "sdkgen is not built and there is no Go toolchain to build it (Go 1.25.11 or newer)"; exit 1; }
  started=$SECONDS
  log "building sdkgen from Go modules (first time only) ..."
  mkdir -p "$(dirname "$sdkgen")"
  (cd "$repo/tools/sdkgen" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$sdkgen.tmp.$$" .) >&2
  mv "$sdkgen.tmp.$$" "$sdkgen"
  log "built sdkgen in $((SECONDS - started)) s"
fi

if ! $check; then
  "$sdkgen" -schema "$repo/sdk/schema.json" -out "$repo/sdk" nodejs python go dotnet >&2
  exit 0
fi

out="$(mktemp -d "${TMPDIR:-/tmp}/gen-sdk.XXXXXX")"
trap 'rm -rf "$out"' EXIT
"$sdkgen" -schema "$repo/sdk/schema.json" -out "$out" nodejs python go dotnet >/dev/null
status=0
for language in nodejs python go dotnet; do
  if ! diff -r "$repo/sdk/$language" "$out/$language" >"$out/$language.diff" 2>&1; then
    log "sdk/$language is not what sdk/schema.json generates:"
    head -n 40 "$out/$language.diff" >&2
    status=1
  fi
done
if [ $status -ne 0 ]; then
  log "run 'npm run gen:schema && bash scripts/gen-sdk.sh' and commit sdk/"
  exit 1
fi
log "sdk/nodejs, sdk/python, sdk/go and sdk/dotnet match sdk/schema.json"
