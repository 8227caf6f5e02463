// The docs a user copies from work: every TypeScript block of the user docs compiles against the
// package as it is installed (its packed files only, a user's compiler options; a block importing the generated
// SDK, against sdk/nodejs), and every relative link of every Markdown file, and every absolute one into this
// repository's main branch, reaches a file, and a heading when it names one. The pages the Pulumi Registry
// renders (docs/_index.md, docs/installation-configuration.md) have no relative link. The markers that let
// a block be a fragment are described in docs/development.md ("Code blocks in the docs").
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const REPO = path.resolve(__dirname, "../..");
const PACKAGE = "pulumi-integration-platform";
/** The package as a user's program resolves it: node_modules/<name>, linked to this checkout. */
const INSTALLED = path.join(REPO, "node_modules", PACKAGE);
/** Where the blocks' virtual files live: inside the checkout, so resolution finds its node_modules. */
const SNIPPETS = path.join(REPO, ".docs-snippets");
/** The user's project whose compiler options the blocks are checked with. */
const USER_TSCONFIG = path.join(REPO, "examples/quickstart/tsconfig.json");

/** The generated TypeScript SDK (the native provider's), which blocks may import: resolved to sdk/nodejs's sources. */
const SDK_PACKAGE = "pulumi-integration-platform-sdk";
const SDK_SOURCES = path.join(REPO, "sdk", "nodejs");

/** The docs the Pulumi Registry renders out of the repository, where a relative link leads nowhere. */
const REGISTRY_DOCS = ["docs/_index.md", "docs/installation-configuration.md"];
/** How those docs link into this repository instead: an absolute address of the main branch (`raw/` for an image). */
const REPO_URL =
  /^https:\/\/github\.com\/pulumi-integration-platform\/pulumi-integration-platform\/(?:blob|tree|raw)\/main\/([^?#]*)(#.*)?$/;

/** Languages whose blocks are compiled. */
const TYPESCRIPT = new Set(["ts", "typescript"]);

/** Every Markdown file whose links are checked: all of them but test data, dependencies and build output. */
function markdownFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // release/ holds what `npm run release` wrote (a copy of the CHANGELOG's section among it).
        if (!["node_modules", "dist", ".git"].includes(entry.name) && rel !== "release") walk(rel);
      } else if (entry.name.endsWith(".md") && (!rel.startsWith("test/") || entry.name === "README.md")) {
        found.push(rel);
      }
    }
  };
  walk("");
  return found.sort();
}

/** Whether a Markdown file's TypeScript blocks are compiled: the docs users read. */
function hasUserCode(file: string): boolean {
  return file === "README.md" || file.startsWith("docs/") || /^examples\/.*README\.md$/.test(file);
}

// ---------------------------------------------------------------------------------------------
// Markdown: fenced blocks, markers, headings, links.

/** A fenced code block; lines are 1-based. */
interface Fence {
  lang: string;
  /** The opening fence's line. */
  line: number;
  /** The content, without the fence's indentation. */
  lines: string[];
  /** The `<!-- snippet: ... -->` comment on the line before the fence. */
  marker?: string;
}

const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;

/** The fenced blocks of a Markdown text, and the lines inside them (so links and headings skip code). */
function fences(text: string): { blocks: Fence[]; inCode: Set<number> } {
  const lines = text.split("\n");
  const blocks: Fence[] = [];
  const inCode = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const close = new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`);
    const content: string[] = [];
    const start = i;
    for (i++; i < lines.length && !close.test(lines[i]); i++) {
      content.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i].trimStart());
    }
    for (let j = start; j <= i; j++) inCode.add(j + 1);
    const marker = start > 0 ? MARKER.exec(lines[start - 1])?.[1] : undefined;
    blocks.push({ lang: lang.toLowerCase(), line: start + 1, lines: content, marker });
  }
  return { blocks, inCode };
}

/** GitHub's anchor of a heading's rendered text (github-slugger): lowercase, punctuation out, spaces to '-'. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** A heading's text as GitHub renders it: code spans literal, links their text, emphasis and tags gone. */
function renderedHeading(source: string): string {
  return source
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+ ?|`+$/g, "").replace(/ $/, "")
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
            .replace(/<[^>]+>/g, "")
            .replace(/\\(.)/g, "$1")
            .replace(/\*+/g, "")
            .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1"),
    )
    .join("")
    .trim();
}

/** The anchors of a Markdown file: its headings' slugs (duplicates numbered as GitHub does) and HTML ids. */
function anchors(text: string): Set<string> {
  const { inCode } = fences(text);
  const lines = text.split("\n");
  const found = new Set<string>();
  const counts = new Map<string, number>();
  const add = (base: string): void => {
    let anchor = base;
    while (found.has(anchor)) {
      const n = (counts.get(base) ?? 0) + 1;
      counts.set(base, n);
      anchor = `${base}-${n}`;
    }
    found.add(anchor);
  };
  lines.forEach((line, i) => {
    if (inCode.has(i + 1)) return;
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    const setext =
      i > 0 && /^ {0,3}(=+|-+)\s*$/.test(line) && /^ {0,3}[^\s#>|\-*+]/.test(lines[i - 1]) && !inCode.has(i);
    if (atx) add(slug(renderedHeading(atx[1])));
    else if (setext) add(slug(renderedHeading(lines[i - 1].trim())));
    for (const html of line.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g)) found.add(html[1]);
  });
  return found;
}

/** A link of a Markdown file: its target as written, and its line. */
interface Link {
  target: string;
  line: number;
}

/** The links of a Markdown text outside code: inline, reference definitions, and HTML href/src. */
function links(text: string): Link[] {
  const { inCode } = fences(text);
  // Code blocks and code spans blanked, newlines kept, so a match's offset gives its line.
  const masked = text
    .split("\n")
    .map((line, i) => (inCode.has(i + 1) ? "" : line.replace(/(`+)[^`]+?\1/g, (span) => " ".repeat(span.length))))
    .join("\n");
  const lineOf = (offset: number): number => masked.slice(0, offset).split("\n").length;
  const found: Link[] = [];
  const patterns = [
    /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm,
    /<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g,
  ];
  for (const pattern of patterns) {
    for (const match of masked.matchAll(pattern)) {
      // The line of the target itself: a link's text may wrap over lines.
      found.push({ target: match[1], line: lineOf(match.index + match[0].lastIndexOf(match[1])) });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

// ---------------------------------------------------------------------------------------------
// The package as installed: the files `npm pack` puts in it.

/** The files of the packed package, relative to its root. */
function packedFiles(): Set<string> {
  // --ignore-scripts: `prepare` would rebuild dist/ under the feet of tests running at the same time.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set(pack.files.map((file) => file.path));
}

/** The directories that hold packed files, relative to the package root ("" is the root). */
function packedDirectories(files: Set<string>): Set<string> {
  const dirs = new Set<string>([""]);
  for (const file of files) {
    for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  return dirs;
}

// ---------------------------------------------------------------------------------------------
// TypeScript blocks: what each compiles as, and the one program that checks them all.

/** How a block is compiled, from its marker. */
type Mode = { kind: "module" } | { kind: "fragment"; given?: string } | { kind: "skip" };

/** A line of a block's virtual file: its Markdown line when it is the block's own, else null. */
interface SourceLine {
  text: string;
  line: number | null;
}

/** A compiled block: its Markdown place, and its virtual file with each line's origin. */
interface Unit {
  file: string;
  fence: Fence;
  virtualPath: string;
  source: SourceLine[];
}

/** What a block's marker asks for, or why the marker is wrong. */
function modeOf(marker: string | undefined): Mode | { kind: "continues" } | { error: string } {
  if (marker === undefined) return { kind: "module" };
  if (marker === "continues") return { kind: "continues" };
  const fragment = /^fragment(?:\s+given\s+(.+))?$/.exec(marker);
  if (fragment) return { kind: "fragment", given: fragment[1] };
  if (/^skip\s+\S/.test(marker)) return { kind: "skip" };
  if (marker === "skip") return { error: "a skip marker needs a reason: `<!-- snippet: skip <why> -->`" };
  return { error: `unknown marker "${marker}": use continues, fragment [given <declarations>] or skip <why>` };
}

/** The names a block's own imports bind, the line its last import ends on (-1: none), and whether one comes after code. */
function imports(lines: string[]): { names: Set<string>; lastLine: number; late: boolean } {
  const file = ts.createSourceFile("block.ts", lines.join("\n"), ts.ScriptTarget.ES2022);
  const names = new Set<string>();
  let lastLine = -1;
  let late = false;
  let code = false;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isImportEqualsDeclaration(statement)) {
      code = true;
      continue;
    }
    late ||= code;
    lastLine = file.getLineAndCharacterOfPosition(statement.end).line;
    if (ts.isImportEqualsDeclaration(statement)) {
      names.add(statement.name.text);
      continue;
    }
    const clause = statement.importClause;
    if (clause?.name) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) bindings.elements.forEach((e) => names.add(e.name.text));
  }
  return { names, lastLine, late };
}

/** A fragment's virtual file: `pulumi` and `platform` imported, the givens declared, its statements in an async function. */
function wrapFragment(body: SourceLine[], given: string | undefined, markerLine: number): SourceLine[] | string {
  const own = imports(body.map((l) => l.text));
  if (own.late) return "a fragment's imports must come first";
  const prelude = [
    own.names.has("pulumi") ? "" : `import * as pulumi from "@pulumi/pulumi";`,
    own.names.has("platform") ? "" : `import * as platform from "${PACKAGE}";`,
    given ? `declare const ${given};` : "",
  ].join(" ");
  const lines: SourceLine[] = [{ text: prelude, line: markerLine }, ...body.map((l) => ({ ...l }))];
  // The function opens on the line of the last import, so every line keeps its number.
  lines[own.lastLine + 1].text += " async function __fragment(): Promise<void> {";
  lines.push({ text: "}", line: markerLine });
  return lines;
}

/** The compile units of one Markdown file's TypeScript blocks, and the problems of their markers. */
function unitsOf(file: string, text: string): { units: Unit[]; problems: string[]; skipped: number } {
  const { blocks, inCode } = fences(text);
  const units: Unit[] = [];
  const problems: string[] = [];
  let skipped = 0;
  // A marker anywhere else would be silently ignored.
  const fenceLines = new Set(blocks.map((b) => b.line));
  text.split("\n").forEach((line, i) => {
    if (MARKER.test(line) && !inCode.has(i + 1) && !fenceLines.has(i + 2)) {
      problems.push(
        `${file}:${i + 1}: ${line.trim()}\n    a snippet marker belongs on the line right before a code fence`,
      );
    }
  });
  // The previous TypeScript block's statements and mode, for `continues`.
  let previous: { body: SourceLine[]; mode: Mode } | undefined;
  for (const fence of blocks) {
    const where = `${file}:${fence.line}: ${fence.lines.find((l) => l.trim() !== "")?.trim() ?? "(empty block)"}`;
    if (!TYPESCRIPT.has(fence.lang)) {
      if (fence.marker !== undefined)
        problems.push(
          `${where}\n    a snippet marker on a ${fence.lang || "plain"} block: only TypeScript blocks take one`,
        );
      // An untagged block that imports the package is TypeScript that escapes the check.
      if (fence.lang === "" && fence.lines.some((l) => /from ["']pulumi-integration-platform|new platform\./.test(l))) {
        problems.push(`${where}\n    TypeScript in a block without a language: tag it \`ts\``);
      }
      continue;
    }
    const asked = modeOf(fence.marker);
    if ("error" in asked) {
      problems.push(`${where}\n    ${asked.error}`);
      previous = undefined;
      continue;
    }
    const ownLines: SourceLine[] = fence.lines.map((l, i) => ({ text: l, line: fence.line + 1 + i }));
    let body = ownLines;
    let mode: Mode = asked.kind === "continues" ? { kind: "module" } : asked;
    if (asked.kind === "continues") {
      if (!previous) {
        problems.push(`${where}\n    "continues", but no checked TypeScript block comes before it on this page`);
        continue;
      }
      // The earlier blocks' lines are theirs: their problems are reported once, at them.
      body = [...previous.body.map((l) => ({ text: l.text, line: null })), ...ownLines];
      mode = previous.mode;
    }
    if (mode.kind === "skip") {
      skipped++;
      previous = undefined;
      continue;
    }
    previous = { body, mode };
    const markerLine = fence.line - 1;
    const source = mode.kind === "fragment" ? wrapFragment(body, mode.given, markerLine) : body;
    if (typeof source === "string") {
      problems.push(`${where}\n    ${source}`);
      continue;
    }
    const virtualPath = path.join(SNIPPETS, `${file.replace(/[\\/]/g, "__")}-L${fence.line}.ts`);
    units.push({ file, fence, virtualPath, source });
  }
  return { units, problems, skipped };
}

/**
 * Compiles every unit in one program, as a user's project would: the user's compiler options, and
 * of this package only the files `npm pack` ships (the checkout is linked into node_modules, so
 * without that filter a subpath import could reach sources no user has).
 */
function compile(units: Unit[], packed: Set<string>): Map<string, ts.Diagnostic[]> {
  const config = ts.readConfigFile(USER_TSCONFIG, ts.sys.readFile);
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    config.config.compilerOptions,
    path.dirname(USER_TSCONFIG),
  );
  assert.deepEqual(errors, [], `${USER_TSCONFIG} does not parse`);
  Object.assign(options, {
    noEmit: true,
    // A user's project has @types/node only; this checkout's mocha globals are not theirs.
    types: ["node"],
    // Each block is its own module, even one without an import (it shares no globals with the others).
    moduleDetection: ts.ModuleDetectionKind.Force,
    // A user of the native provider installs its generated SDK; here it is the checked-in sources.
    paths: { [SDK_PACKAGE]: [path.join(SDK_SOURCES, "index.ts")] },
  } satisfies ts.CompilerOptions);

  const virtual = new Map(units.map((u) => [u.virtualPath, u.source.map((l) => l.text).join("\n")]));
  const dirs = packedDirectories(packed);
  /** Whether an installed package would have this path: of the package's own, only packed files. */
  const installed = (p: string, isDir: boolean): boolean => {
    const inPackage = (root: string): string | undefined => {
      const rel = path.relative(root, p);
      return rel.startsWith("..") || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join("/");
    };
    const rel =
      inPackage(INSTALLED) ?? (inPackage(path.join(REPO, "node_modules")) === undefined ? inPackage(REPO) : undefined);
    if (rel === undefined) return true;
    if (rel === "sdk" || rel.startsWith("sdk/nodejs")) return true;
    return isDir ? dirs.has(rel) : packed.has(rel);
  };
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (p) => virtual.has(p) || (installed(p, false) && ts.sys.fileExists(p));
  host.readFile = (p) => virtual.get(p) ?? (installed(p, false) ? readFile(p) : undefined);
  host.directoryExists = (p) => p === SNIPPETS || (installed(p, true) && ts.sys.directoryExists(p));
  host.getSourceFile = (p, language, onError) => {
    const text = virtual.get(p);
    if (text !== undefined) return ts.createSourceFile(p, text, language);
    return installed(p, false) ? getSourceFile(p, language, onError) : undefined;
  };
  host.getCurrentDirectory = () => REPO;

  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });
  const found = new Map<string, ts.Diagnostic[]>();
  const add = (key: string, d: ts.Diagnostic): void => void found.set(key, [...(found.get(key) ?? []), d]);
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) add("", d);
  for (const unit of units) {
    const sourceFile = program.getSourceFile(unit.virtualPath)!;
    for (const d of [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)])
      add(unit.virtualPath, d);
  }
  return found;
}

/** A block's problems, under its file:line and first line: each at its own line, with the compiler's message. */
function blockProblems(unit: Unit, found: readonly ts.Diagnostic[]): string | undefined {
  const messages: string[] = [];
  for (const d of found) {
    const line =
      d.file && d.start !== undefined
        ? unit.source[d.file.getLineAndCharacterOfPosition(d.start).line]?.line
        : undefined;
    if (line === null) continue; // an earlier block's line: reported at that block
    const inBlock = line !== undefined && line > unit.fence.line && line <= unit.fence.line + unit.fence.lines.length;
    const code = inBlock
      ? unit.fence.lines[line - unit.fence.line - 1].trim()
      : "(what the marker adds around the block)";
    messages.push(
      `  ${unit.file}:${line ?? unit.fence.line}: ${code}\n    TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n      ")}`,
    );
  }
  if (messages.length === 0) return undefined;
  const first = unit.fence.lines.find((l) => l.trim() !== "")?.trim() ?? "";
  return `${unit.file}:${unit.fence.line}: the block \`${first}\`\n${messages.join("\n")}`;
}

/** The problems of one link: a missing target, an anchor no heading has, or a target the package does not ship. */
function linkProblems(
  file: string,
  link: Link,
  packed: Set<string>,
  packedDirs: Set<string>,
  anchorsOf: (target: string) => Set<string>,
): string[] {
  const own = REPO_URL.exec(link.target);
  // A link to this repository's main branch is checked as the file it names (relative to the root).
  const target = own ? `/${own[1]}${own[2] ?? ""}` : link.target;
  // A heading of the same page is found there too.
  if (!own && REGISTRY_DOCS.includes(file) && !/^(https?:|mailto:|#)/i.test(target))
    return [
      `${file}:${link.line}: ${target}\n    the Pulumi Registry renders this file out of the repository: link with an absolute https://github.com/pulumi-integration-platform/pulumi-integration-platform/blob/main/... address`,
    ];
  // Absolute URLs are not fetched (no network in tests).
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return [];
  const hash = target.indexOf("#");
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).split("?")[0];
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  // GitHub resolves a leading "/" from the repository's root.
  const resolved =
    pathPart === ""
      ? file
      : path.posix.normalize(
          pathPart.startsWith("/") ? pathPart.slice(1) : path.posix.join(path.posix.dirname(file), pathPart),
        );
  const at = `${file}:${link.line}: ${link.target}`;
  const problems: string[] = [];
  const full = path.join(REPO, resolved);
  if (resolved.startsWith("..") || !fs.existsSync(full)) return [`${at}\n    ${resolved} does not exist`];
  const isDir = fs.statSync(full).isDirectory();
  if (!own && packed.has(file) && !(isDir ? packedDirs.has(resolved.replace(/\/$/, "")) : packed.has(resolved))) {
    problems.push(
      `${at}\n    ${resolved} is not in the package, which ships ${file}: the link is broken for users who read it from node_modules`,
    );
  }
  if (anchor !== undefined && anchor !== "") {
    if (isDir || !resolved.endsWith(".md")) problems.push(`${at}\n    #${anchor}: ${resolved} is not a Markdown file`);
    else if (!anchorsOf(resolved).has(anchor))
      problems.push(`${at}\n    #${anchor}: no heading of ${resolved} has this anchor`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe("the docs", function () {
  this.timeout(120_000);
  const files = markdownFiles();
  const texts = new Map(files.map((f) => [f, fs.readFileSync(path.join(REPO, f), "utf8")]));
  const codeFiles = files.filter(hasUserCode);
  const parsed = new Map(codeFiles.map((f) => [f, unitsOf(f, texts.get(f)!)]));
  let packed: Set<string>;
  let diagnostics: Map<string, ts.Diagnostic[]>;

  before(() => {
    assert.ok(
      fs.existsSync(path.join(REPO, "dist/provider/index.d.ts")),
      "dist/ is missing: run `npm run build` first (npm test does)",
    );
    packed = packedFiles();
    diagnostics = compile(
      [...parsed.values()].flatMap((p) => p.units),
      packed,
    );
  });

  describe("TypeScript blocks compile against the package as installed", () => {
    it("the compiler options and the program", () => {
      const general = (diagnostics.get("") ?? []).map(
        (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n  ")}`,
      );
      assert.deepEqual(general, []);
    });

    for (const file of codeFiles) {
      const { units, problems, skipped } = parsed.get(file)!;
      if (units.length === 0 && problems.length === 0 && skipped === 0) continue;
      it(`${file}: ${units.length} compiled${skipped ? `, ${skipped} skipped by marker` : ""}`, () => {
        const found = [...problems];
        for (const unit of units) {
          const text = blockProblems(unit, diagnostics.get(unit.virtualPath) ?? []);
          if (text) found.push(text);
        }
        // In the page's order: a problem starts with its file:line.
        found.sort((a, b) => Number(/^[^:]+:(\d+)/.exec(a)![1]) - Number(/^[^:]+:(\d+)/.exec(b)![1]));
        if (found.length > 0) assert.fail(`${found.length} block(s) with problems:\n\n${found.join("\n\n")}\n`);
      });
    }
  });

  describe("relative links (and absolute ones into this repository's main branch) reach a file, a heading, and in shipped files a shipped file", () => {
    const cache = new Map<string, Set<string>>();
    const anchorsOf = (target: string): Set<string> => {
      if (!cache.has(target))
        cache.set(target, anchors(texts.get(target) ?? fs.readFileSync(path.join(REPO, target), "utf8")));
      return cache.get(target)!;
    };
    for (const file of files) {
      const found = links(texts.get(file)!);
      it(`${file}: ${found.length} links`, () => {
        const dirs = packedDirectories(packed);
        const problems = found.flatMap((link) => linkProblems(file, link, packed, dirs, anchorsOf));
        if (problems.length > 0) assert.fail(`${problems.length} broken link(s):\n\n${problems.join("\n\n")}\n`);
      });
    }
  });
});
