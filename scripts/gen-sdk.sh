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
#
# The generators are built from Go modules once (go_tool, scripts/lib/ensure.sh) and cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform), keyed by their go.sum, go.mod and main.go.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=gen-sdk
. "$repo/scripts/lib/ensure.sh"
check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) log "unknown argument '$1': use --check, or nothing"; exit 2 ;;
esac

sdkgen="$(go_tool sdkgen)"
sdkgen_dotnet="$(go_tool sdkgen-dotnet)"
# Pulumi's Java generator, pinned in tools/pulumi/language-java with the Java host.
pulumi_java_gen="$(go_tool pulumi/language-java pulumi-java-gen github.com/pulumi/pulumi-java/pkg/cmd/pulumi-java-gen -ldflags "-s -w")"
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$repo/sdk/schema.json" | head -n 1)"
generate() { # <output directory>
  "$sdkgen" -schema "$repo/sdk/schema.json" -out "$1" nodejs python go
  "$sdkgen_dotnet" -schema "$repo/sdk/schema.json" -out "$1/dotnet"
  # Its --out is joined under the working directory, even when absolute. `--sdk`: the Pulumi Java
  # SDK on Maven Central (1.21 to 1.35 were never published there; the generator's default is 1.22).
  rm -rf "$1/java"
  (cd "$1" && "$pulumi_java_gen" generate --schema "$repo/sdk/schema.json" --out java --build none --version "$version" --sdk 1.36.1 2>&1 |
    grep -v -e 'is deprecated, use' -e 'does not have an Output type' >&2 || true)
  sed "s/@VERSION@/$version/" "$repo/tools/sdkgen-java/pom.xml.template" >"$1/java/pom.xml"
  # What the generators cannot write (the sharding helpers): our own files, laid over theirs.
  for language in python go java; do
    cp -R "$repo/sdk-overlays/$language/." "$1/$language/"
  done
}

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
