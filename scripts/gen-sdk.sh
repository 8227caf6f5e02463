#!/usr/bin/env bash
# Generates the SDKs from sdk/schema.json with Pulumi's own code generators: sdk/nodejs, sdk/python
# and sdk/go with tools/sdkgen (pkg/codegen at the pinned CLI's v3.259.0), sdk/dotnet with
# tools/sdkgen-dotnet (v3.200.0, the last release that carries the .NET generator), sdk/java with
# pulumi-java-gen (pulumi-java v1.22.0, tools/pulumi/language-java), the pom of tools/sdkgen-java and a plugin.json; then the files of
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
plugin_server="$(sed -n 's/^  "pluginDownloadURL": "\(.*\)",$/\1/p' "$repo/sdk/schema.json" | head -n 1)"
[ -n "$plugin_server" ] || { log "sdk/schema.json has no pluginDownloadURL, which the Java SDK's plugin.json names: run 'npm run gen:schema'"; exit 1; }
generate() { # <output directory>
  "$sdkgen" -schema "$repo/sdk/schema.json" -out "$1" nodejs python go
  "$sdkgen_dotnet" -schema "$repo/sdk/schema.json" -out "$1/dotnet"
  # Its --out is joined under the working directory, even when absolute. `--sdk`: the Pulumi Java
  # SDK on Maven Central (1.21 to 1.35 were never published there; the generator's default is 1.22).
  rm -rf "$1/java"
  (cd "$1" && "$pulumi_java_gen" generate --schema "$repo/sdk/schema.json" --out java --build none --version "$version" --sdk 1.36.1 2>&1 |
    grep -v -e 'is deprecated, use' -e 'does not have an Output type' >&2 || true)
  sed "s/@VERSION@/$version/" "$repo/tools/sdkgen-java/pom.xml.template" >"$1/java/pom.xml"
  # The plugin a Java program needs, as Pulumi's Java SDK finds it (com.pulumi.bootstrap.internal):
  # a plugin.json resource under com/<namespace>/<name>/, the only prefix it scans, which the
  # generator does not write (its Gradle build would). docs/design/release.md, "The Java SDK".
  local plugin_json="$1/java/src/main/resources/com/github/pulumi-integration-platform/integration-platform/plugin.json"
  mkdir -p "$(dirname "$plugin_json")"
  printf '{\n  "resource": true,\n  "name": "integration-platform",\n  "version": "%s",\n  "server": "%s"\n}\n' \
    "$version" "$plugin_server" >"$plugin_json"
  # What the generators cannot write (the sharding helpers): our own files, laid over theirs.
  for language in python go java; do
    cp -R "$repo/sdk-overlays/$language/." "$1/$language/"
  done
  packaging "$1"
}
# The PEP 639 license fields need setuptools 77 or newer; 82.0.1 is the newest that still runs on
# Python 3.9, the SDK's requires-python (an sdist is built on the installing machine).
setuptools_pin=82.0.1
packaging() { # <output directory>: the package metadata the generators do not write (docs/design/release.md)
  local pyproject="$1/python/pyproject.toml" package_json="$1/nodejs/package.json"
  # The wheel, the sdist and the npm tarball carry the license, as the registries show it; the Go
  # module too, since pkg.go.dev shows no documentation of a module without a license it recognizes.
  cp "$repo/LICENSE" "$1/python/LICENSE"
  cp "$repo/LICENSE" "$1/nodejs/LICENSE"
  cp "$repo/LICENSE" "$1/go/LICENSE"
  # `license` as an SPDX expression with `license-files` (PEP 639), not the table setuptools stops
  # reading in 2027; the build backend pinned.
  sed -e '/^  \[project\.license\]$/{N;s/^  \[project\.license\]\n    text = \("[^"]*"\)$/  license = \1\n  license-files = ["LICENSE"]/;}' \
    -e "s/^  requires = \[\"setuptools>=61\.0\"\]$/  requires = [\"setuptools==$setuptools_pin\"]/" \
    "$pyproject" >"$pyproject.tmp"
  mv "$pyproject.tmp" "$pyproject"
  if grep -q '^  \[project\.license\]' "$pyproject" || ! grep -q '^  license-files = \["LICENSE"\]$' "$pyproject" ||
    ! grep -q "^  requires = \[\"setuptools==$setuptools_pin\"\]$" "$pyproject"; then
    log "Pulumi's Python generator wrote $pyproject in a shape scripts/gen-sdk.sh does not know: update its packaging()"
    exit 1
  fi
  # npm corrects a repository given as a bare URL at publish time (and warns): the object form, and where to report bugs.
  node -e '
    const fs = require("fs");
    const [file] = process.argv.slice(1);
    const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
    if (typeof pkg.repository !== "string") throw new Error(`${file}: no repository URL from the schema`);
    const url = pkg.repository.replace(/\/$/, "");
    const fixed = {};
    for (const [key, value] of Object.entries(pkg)) {
      if (key !== "repository") fixed[key] = value;
      else Object.assign(fixed, { repository: { type: "git", url: `git+${url}.git` }, bugs: { url: `${url}/issues` } });
    }
    fs.writeFileSync(file, JSON.stringify(fixed, null, 4) + "\n");
  ' "$package_json"
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
