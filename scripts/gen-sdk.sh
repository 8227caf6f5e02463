#!/usr/bin/env bash
# Generates the SDKs from sdk/schema.json with Pulumi's own code generators: sdk/nodejs, sdk/python
# and sdk/go with tools/sdkgen (pkg/codegen at the pinned CLI's v3.259.0), sdk/dotnet with
# tools/sdkgen-dotnet (v3.200.0, the last release that carries the .NET generator), sdk/java with
# pulumi-java-gen (pulumi-java v1.22.0, tools/pulumi/language-java), the pom of tools/sdkgen-java and a plugin.json; then the files of
# sdk-overlays/<language> are copied over them (sdk-overlays/README.md), and sdk/nodejs's constructors register
# without the SDK's per-promise stack traces (registration_nodejs). Never edit them by hand: change the definitions
# or the overlays, run `npm run gen:schema`, then this script, and commit all of it.
#
#   bash scripts/gen-sdk.sh           regenerate sdk/<language>
#   bash scripts/gen-sdk.sh --check   fail (exit 1, with a diff) when the checked-in SDKs differ
#   bash scripts/gen-sdk.sh --schema FILE --out DIR [language ...]
#                                     generate from FILE into DIR/<language> (all five, or those named);
#                                     a snapshot release (scripts/release.ts) generates its SDKs this way
#
# The generators are built from Go modules once (go_tool, scripts/lib/ensure.sh: one build at a time, a
# lock file) and cached in $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform), keyed by
# their go.sum, go.mod and main.go.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=gen-sdk
. "$repo/scripts/lib/ensure.sh"
# Every SDK generated, each in sdk/<language>; sdk-overlays/<language> is laid over the one it names.
all_languages=(nodejs python go dotnet java)
check=false
schema="$repo/sdk/schema.json"
out_dir=""
languages=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=true ;;
    --schema) schema="$(cd "$(dirname "${2:?--schema needs a file}")" && pwd)/$(basename "$2")"; shift ;;
    --out) mkdir -p "${2:?--out needs a folder}"; out_dir="$(cd "$2" && pwd)"; shift ;;
    *)
      if [[ " ${all_languages[*]} " == *" $1 "* ]]; then languages+=("$1"); else
        log "unknown argument '$1': use --check, nothing, or --schema FILE --out DIR [${all_languages[*]}]"; exit 2
      fi ;;
  esac
  shift
done
if [ -z "$out_dir" ] && { [ "$schema" != "$repo/sdk/schema.json" ] || [ ${#languages[@]} -gt 0 ]; }; then
  log "--schema and languages go with --out DIR: sdk/ is always generated whole from sdk/schema.json"; exit 2
fi
if $check && [ -n "$out_dir" ]; then log "--check compares sdk/ and takes no --out"; exit 2; fi
[ -f "$schema" ] || { log "no schema at $schema"; exit 2; }
[ ${#languages[@]} -gt 0 ] || languages=("${all_languages[@]}")
wants() { [[ " ${languages[*]} " == *" $1 "* ]]; }

# Each in its own subshell (a command substitution): go_tool's lock is let go when it returns.
sdkgen="$(go_tool sdkgen)"
if wants dotnet; then sdkgen_dotnet="$(go_tool sdkgen-dotnet)"; fi
# Pulumi's Java generator, pinned in tools/pulumi/language-java with the Java host.
if wants java; then pulumi_java_gen="$(go_tool pulumi/language-java pulumi-java-gen github.com/pulumi/pulumi-java/pkg/cmd/pulumi-java-gen -ldflags "-s -w")"; fi
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$schema" | head -n 1)"
[ -n "$version" ] || { log "$schema has no top-level \"version\" (written as JSON.stringify's two-space indent)"; exit 2; }
plugin_server="$(sed -n 's/^  "pluginDownloadURL": "\(.*\)",$/\1/p' "$schema" | head -n 1)"
[ -n "$plugin_server" ] || { log "$schema has no pluginDownloadURL, which the Java SDK's plugin.json names: run 'npm run gen:schema'"; exit 1; }
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
    # The plugin a Java program needs, as Pulumi's Java SDK finds it (com.pulumi.bootstrap.internal):
    # a plugin.json resource under com/<namespace>/<name>/, the only prefix it scans, which the
    # generator does not write (its Gradle build would). docs/design/release.md, "The Java SDK".
    local plugin_json="$1/java/src/main/resources/com/github/pulumi-integration-platform/integration-platform/plugin.json"
    mkdir -p "$(dirname "$plugin_json")"
    printf '{\n  "resource": true,\n  "name": "integration-platform",\n  "version": "%s",\n  "server": "%s"\n}\n' \
      "$version" "$plugin_server" >"$plugin_json"
  fi
  # What the generators cannot write (the sharding helpers): our own files, laid over theirs, in
  # each language that has a folder of them in sdk-overlays/ (its tests/ is no language: never copied).
  for language in "${languages[@]}"; do
    if [ -d "$repo/sdk-overlays/$language" ]; then cp -R "$repo/sdk-overlays/$language/." "$1/$language/"; fi
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
  local language
  for language in python nodejs go; do
    if wants "$language"; then cp "$repo/LICENSE" "$1/$language/LICENSE"; fi
  done
  if wants python; then packaging_python "$pyproject"; fi
  if wants nodejs; then packaging_nodejs "$package_json" && registration_nodejs "$1/nodejs"; fi
}
packaging_python() { # <pyproject.toml>
  local pyproject="$1"
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
}
packaging_nodejs() { # <package.json>
  local package_json="$1"
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

registration_nodejs() { # <sdk/nodejs>
  # Each resource's constructor registers with Error.stackTraceLimit at 0, as the dynamic resources'
  # classes do (provider/dynamic/resourceClass.ts): the Node.js SDK formats a stack trace for each of
  # the 4 promises it makes per property, and prints them only in its promise-leak report. They were
  # half of a no-change preview of 2,949 resources (docs/design/resources.md, "Registering many").
  node -e '
    const fs = require("fs");
    const path = require("path");
    const [dir] = process.argv.slice(1);
    const SUPER = /^( +)super\((\w+)\.__pulumiType, name, resourceInputs, opts(, true \/\*remote\*\/)?\);$/m;
    let rewritten = 0;
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const file = path.join(dir, name);
      const text = fs.readFileSync(file, "utf8");
      if (!text.includes("__pulumiType, name,")) continue;
      const match = SUPER.exec(text);
      if (!match) throw new Error(`${file}: a resource constructor whose super call scripts/gen-sdk.sh does not know`);
      const [line, indent, type] = match;
      const i = (n) => indent + "    ".repeat(n);
      const wrapped = [
        `${i(0)}// Registered without the stack trace the SDK formats for each promise it makes (scripts/gen-sdk.sh).`,
        `${i(0)}const stackTraceLimit = Error.stackTraceLimit;`,
        `${i(0)}Error.stackTraceLimit = 0;`,
        `${i(0)}try {`,
        `${i(1)}${line.trim()}`,
        `${i(0)}} catch (error) {`,
        `${i(1)}// What the SDK refuses at once keeps a stack that points at the program\x27s line.`,
        `${i(1)}Error.stackTraceLimit = stackTraceLimit;`,
        `${i(1)}if (error instanceof Error) Error.captureStackTrace(error, ${type});`,
        `${i(1)}throw error;`,
        `${i(0)}} finally {`,
        `${i(1)}Error.stackTraceLimit = stackTraceLimit;`,
        `${i(0)}}`,
      ].join("\n");
      fs.writeFileSync(file, text.replace(line, wrapped));
      rewritten += 1;
    }
    if (rewritten === 0) throw new Error(`${dir}: no resource constructor found to register without stack traces`);
  ' "$1"
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
for language in "${all_languages[@]}"; do
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
log "sdk/{$(IFS=,; echo "${all_languages[*]}")} match sdk/schema.json"
