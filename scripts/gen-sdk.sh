#!/usr/bin/env bash
# Generates the SDKs from sdk/schema.json with Pulumi's own code generators: sdk/nodejs, sdk/python
# and sdk/go with tools/sdkgen (pkg/codegen at the pinned CLI's v3.259.0), sdk/dotnet with
# tools/sdkgen-dotnet (v3.200.0, the last release that carries the .NET generator), sdk/java with
# pulumi-java-gen (pulumi-java v1.22.0, tools/pulumi/language-java) and the pom of tools/sdkgen-java; then the files of
# sdk-overlays/<language> are copied over them (sdk-overlays/README.md). Never edit them by hand: change the definitions
# or the overlays, run `npm run gen:schema`, then this script, and commit all of it.
#
#   bash scripts/gen-sdk.sh           regenerate sdk/<language>
#   bash scripts/gen-sdk.sh --check   fail (exit 1, with a diff) when the checked-in SDKs differ
#   bash scripts/gen-sdk.sh --schema FILE --out DIR [language ...]
#                                     generate from FILE into DIR/<language> (all five, or those named);
#                                     a snapshot release (scripts/release.ts) generates its SDKs this way
#
# The generators are built from Go modules once and cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform), keyed by their go.sum, go.mod and main.go; one build at a
# time (a lock file), as two releases or tests may ask at once.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=gen-sdk
. "$repo/scripts/lib/ensure.sh"
check=false
schema="$repo/sdk/schema.json"
out_dir=""
languages=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=true ;;
    --schema) schema="$(cd "$(dirname "${2:?--schema needs a file}")" && pwd)/$(basename "$2")"; shift ;;
    --out) mkdir -p "${2:?--out needs a folder}"; out_dir="$(cd "$2" && pwd)"; shift ;;
    nodejs | python | go | dotnet | java) languages+=("$1") ;;
    *) log "unknown argument '$1': use --check, nothing, or --schema FILE --out DIR [nodejs python go dotnet java]"; exit 2 ;;
  esac
  shift
done
if [ -z "$out_dir" ] && { [ "$schema" != "$repo/sdk/schema.json" ] || [ ${#languages[@]} -gt 0 ]; }; then
  log "--schema and languages go with --out DIR: sdk/ is always generated whole from sdk/schema.json"; exit 2
fi
if $check && [ -n "$out_dir" ]; then log "--check compares sdk/ and takes no --out"; exit 2; fi
[ -f "$schema" ] || { log "no schema at $schema"; exit 2; }
[ ${#languages[@]} -gt 0 ] || languages=(nodejs python go dotnet java)
wants() { [[ " ${languages[*]} " == *" $1 "* ]]; }

tool() { # <tools/ folder>: builds it once, prints the binary's path
  local dir="$repo/tools/$1" key binary started
  key="$(cat "$dir/go.sum" "$dir/go.mod" "$dir/main.go" | sha256sum | cut -c1-12)"
  binary="$cache_root/$1-$key/$1"
  mkdir -p "$cache_root"
  exec 9>"$cache_root/$1-$key.lock"
  flock 9
  if [ ! -x "$binary" ]; then
    command -v go >/dev/null 2>&1 || { log "$1 is not built and there is no Go toolchain to build it (Go 1.25.11 or newer)"; exit 1; }
    started=$SECONDS
    log "building $1 from Go modules (first time only) ..."
    mkdir -p "$(dirname "$binary")"
    (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$binary.tmp.$$" .) >&2
    mv "$binary.tmp.$$" "$binary"
    log "built $1 in $((SECONDS - started)) s"
  fi
  echo "$binary"
}
java_gen() { # builds Pulumi's Java generator (pinned in tools/pulumi/language-java with the Java host) once, prints its path
  local dir="$repo/tools/pulumi/language-java" key binary started
  key="$(cat "$dir/go.sum" "$dir/go.mod" | sha256sum | cut -c1-12)"
  binary="$cache_root/pulumi-java-gen-$key/pulumi-java-gen"
  mkdir -p "$cache_root"
  exec 9>"$cache_root/pulumi-java-gen-$key.lock"
  flock 9
  if [ ! -x "$binary" ]; then
    command -v go >/dev/null 2>&1 || { log "pulumi-java-gen is not built and there is no Go toolchain to build it (Go 1.25.11 or newer)"; exit 1; }
    started=$SECONDS
    log "building pulumi-java-gen from Go modules (first time only) ..."
    mkdir -p "$(dirname "$binary")"
    (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$binary.tmp.$$" github.com/pulumi/pulumi-java/pkg/cmd/pulumi-java-gen) >&2
    mv "$binary.tmp.$$" "$binary"
    log "built pulumi-java-gen in $((SECONDS - started)) s"
  fi
  echo "$binary"
}
# Each in its own subshell (a command substitution): the lock is let go when it returns.
sdkgen="$(tool sdkgen)"
if wants dotnet; then sdkgen_dotnet="$(tool sdkgen-dotnet)"; fi
if wants java; then pulumi_java_gen="$(java_gen)"; fi
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$schema" | head -n 1)"
[ -n "$version" ] || { log "$schema has no top-level \"version\" (written as JSON.stringify's two-space indent)"; exit 2; }
generate() { # <output directory>
  local sdkgen_languages=() language
  for language in nodejs python go; do
    if wants "$language"; then sdkgen_languages+=("$language"); fi
  done
  if [ ${#sdkgen_languages[@]} -gt 0 ]; then "$sdkgen" -schema "$schema" -out "$1" "${sdkgen_languages[@]}"; fi
  if wants dotnet; then "$sdkgen_dotnet" -schema "$schema" -out "$1/dotnet"; fi
  if wants java; then
    # Its --out is joined under the working directory, even when absolute. `--sdk`: the Pulumi Java
    # SDK on Maven Central (1.21 to 1.35 were never published there; the generator's default is 1.22).
    rm -rf "$1/java"
    (cd "$1" && "$pulumi_java_gen" generate --schema "$schema" --out java --build none --version "$version" --sdk 1.36.1 2>&1 |
      grep -v -e 'is deprecated, use' -e 'does not have an Output type' >&2 || true)
    sed "s/@VERSION@/$version/" "$repo/tools/sdkgen-java/pom.xml.template" >"$1/java/pom.xml"
  fi
  # What the generators cannot write (the sharding helpers): our own files, laid over theirs.
  for language in python go java; do
    if wants "$language"; then cp -R "$repo/sdk-overlays/$language/." "$1/$language/"; fi
  done
}

if [ -n "$out_dir" ]; then
  generate "$out_dir" >&2
  exit 0
fi
if ! $check; then
  generate "$repo/sdk" >&2
  exit 0
fi

out="$(mktemp -d "${TMPDIR:-/tmp}/gen-sdk.XXXXXX")"
trap 'rm -rf "$out"' EXIT
generate "$out" >/dev/null
status=0
for language in nodejs python go dotnet java; do
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
log "sdk/nodejs, sdk/python, sdk/go, sdk/dotnet and sdk/java match sdk/schema.json"
