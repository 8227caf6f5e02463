// Links node_modules/pulumi-integration-platform to this checkout, so that the root Pulumi.yaml
// (which runs examples/quickstart in place) resolves the package by name, as a user's program
// would. Run by `npm install` / `npm ci` through the `prepare` script; harmless when repeated.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const modules = path.join(__dirname, "..", "node_modules");
if (fs.existsSync(modules)) {
  const link = path.join(modules, "pulumi-integration-platform");
  fs.rmSync(link, { force: true, recursive: true });
  fs.symlinkSync("..", link, "dir");
}
