#!/usr/bin/env bash
# Makes Apache Maven 3.9.9 available, from Maven Central (org.apache.maven:apache-maven, its bin
# tar.gz), fetched once by the system's `mvn` and checked against the sha512 pinned below; prints
# the directory holding `mvn` as the last line of stdout:
#
#   PATH="$(bash scripts/ensure-maven.sh):$PATH" mvn --version
#
# Why not the system's Maven: Debian's and Ubuntu's Maven 3.8.7 writes an ANSI reset (ESC[0m) to
# stdout as it exits, even with --batch-mode and stdout a pipe, after the JSON that Pulumi's Java
# language host reads from `mvn … exec:java -DmainArgs=packages`: the host cannot parse it and finds no
# plugin for any package. Maven 3.9 writes none (docs/design/release.md, "The Java SDK").
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-maven
. "$repo/scripts/lib/ensure.sh"
die() { log "$*"; exit 1; }

version=3.9.9
sha512=a555254d6b53d267965a3404ecb14e53c3827c09c3b94b5678835887ab404556bfaf78dcfe03ba76fa2508649dca8531c74bca4d5846513522404d48e8c4ac8b
dir="$cache_root/apache-maven-$version"
mkdir -p "$cache_root"
exec 9>"$dir.lock"
flock 9
if [ -x "$dir/bin/mvn" ]; then
  log "using the cached Maven $version in $dir"
  echo "$dir/bin"
  exit 0
fi

command -v mvn >/dev/null 2>&1 || die "a first mvn (any 3.x, e.g. Debian's package 'maven') is needed to fetch Maven $version from Maven Central"
staging="$(mktemp -d "${TMPDIR:-/tmp}/ensure-maven.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
log "fetching org.apache.maven:apache-maven:$version (bin tar.gz) from Maven Central (first time only) ..."
# -C: fail on a checksum Maven Central serves that does not match; the sha512 below is checked too.
mvn --batch-mode --quiet --no-transfer-progress -C -Dmaven.repo.local="$staging/repository" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
  -Dartifact="org.apache.maven:apache-maven:$version:tar.gz:bin" -DoutputDirectory="$staging" >&2
archive="$staging/apache-maven-$version-bin.tar.gz"
echo "$sha512  $archive" | sha512sum --check --quiet - || die "$archive does not have the pinned sha512"
tar -xzf "$archive" -C "$staging"
move_into_place "$staging/apache-maven-$version" "$dir"
log "Maven $version in $dir"
echo "$dir/bin"
