// The import graph's rules (docs/design/code.md): no circles, and every import pointing down a
// layer. `npm run lint` checks them; `npm run graph` draws the graph into docs/design/imports.md.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle has no bottom: each of its modules needs the others loaded first.",
      from: {},
      to: { circular: true },
    },
    {
      name: "contract-stands-alone",
      severity: "error",
      comment:
        "The platform's contract is what the provider, the CLI and the emulator agree on; it imports none of them.",
      from: { path: "^contract/" },
      to: { path: "^(provider|cli|emulator|harness|scripts|test)/" },
    },
    {
      name: "provider-below-cli",
      severity: "error",
      comment: "The provider is the library; the CLI and the emulator are built beside or on it, never under it.",
      from: { path: "^provider/" },
      to: { path: "^(cli|emulator|harness|scripts|test)/" },
    },
    {
      name: "emulator-is-the-platform",
      severity: "error",
      comment:
        "The emulator stands in for the platform: it must not borrow the client's code, or a mistake both share passes every test.",
      from: { path: "^emulator/" },
      to: { path: "^(provider|cli|harness|scripts|test)/" },
    },
    {
      name: "cli-uses-the-provider",
      severity: "error",
      comment: "The CLI talks to the platform (or the emulator) over HTTP, as a user's tool does.",
      from: { path: "^cli/" },
      to: { path: "^(emulator|harness|scripts|test)/" },
    },
    {
      name: "harness-serves-tests-and-scripts",
      severity: "error",
      comment:
        "The harness (emulator processes, stacks, the engine) is imported by tests and scripts, never the reverse.",
      from: { path: "^harness/" },
      to: { path: "^(scripts|test)/" },
    },
    {
      name: "scripts-use-the-harness",
      severity: "error",
      comment: "Scripts share code with tests through harness/, not by reaching into test/.",
      from: { path: "^scripts/" },
      to: { path: "^test/" },
    },
    {
      name: "forwarders-are-leaves",
      severity: "error",
      comment:
        "The forwarders' module (dynamic/program.ts) is serialized into every stack's state: only forwarders import it.",
      from: { pathNot: "^provider/dynamic/forwarders/" },
      to: { path: "^provider/dynamic/program[.]ts$" },
    },
    {
      name: "client-is-the-bottom",
      severity: "error",
      comment: "The HTTP client knows the platform's operations, not the resources or plugins built on them.",
      from: { path: "^provider/client/" },
      to: { path: "^provider/(resources|functions|native|dynamic|components|webhooks)/" },
    },
    {
      name: "resources-below-plugins",
      severity: "error",
      comment: "Resources and lookups are defined once; the dynamic host and the native plugin serve them.",
      from: { path: "^provider/(resources|functions)/" },
      to: { path: "^provider/native/" },
    },
    {
      name: "definitions-below-dynamic",
      severity: "error",
      comment:
        "A resource or lookup is defined once, and the dynamic classes, the forwarders' table and the component are derived from the list of definitions in dynamic/ and components/ (docs/design/resources.md): a definition that reached up to them would make adding a type an edit in two layers, and the layers a circle.",
      from: { path: "^provider/(resources|functions)/" },
      to: { path: "^provider/(dynamic|components)/" },
    },
    {
      name: "hosts-side-by-side",
      severity: "error",
      comment:
        "The dynamic host and the native plugin each serve the definitions (resources/served.ts) over a connection of their own: neither is built on the other, so neither imports the other.",
      from: { path: "^provider/(dynamic|native)/" },
      to: { path: "^provider/(dynamic|native)/", pathNot: "^provider/$1/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|sdk|release|tools|node_modules|test/e2e/upgrade)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.test.json" },
  },
};
