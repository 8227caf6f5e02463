// The Pulumi program every reliability test runs: it declares exactly what `spec.json` (beside
// it, rewritten by the tests between runs) lists, and calls the lookups it names. Plain
// JavaScript, so that no compile step adds seconds to each of the suite's many CLI runs, and so
// that bad input reaches the provider as a JavaScript user (or a value read from JSON) sends it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const platform = require("pulumi-integration-platform");

const spec = JSON.parse(fs.readFileSync(path.join(__dirname, "spec.json"), "utf8"));
const config = new pulumi.Config();

/** An env value is given inline, or named by a stack config key that holds it as a secret. */
function entryValue(entry) {
  return entry.valueFromConfig ? config.requireSecret(entry.valueFromConfig) : entry.args.value;
}

/** What a lookup's result is reduced to in the stack's outputs. */
const count = (result) => (Array.isArray(result) ? result.length : 1);

// Lookups marked `unawaited` start while the module loads and are never awaited, so that a
// rejection reaches the runtime's unhandled-rejection handler at once: on Node 20 and 22 a failure
// of the exported async function below takes about 27 s to be reported (nodejs/node#64011;
// docs/guides/reliability.md, "Known limitations").
for (const call of (spec.lookups || []).filter((c) => c.unawaited)) platform[call.fn](call.args).then(count);

module.exports = async () => {
  const outputs = {};
  // Lookups run in this process, before any resource: they share the client's retries.
  for (const [index, call] of (spec.lookups || []).entries()) {
    if (!call.unawaited) outputs[`lookup${index}`] = count(await platform[call.fn](call.args));
  }
  for (const f of spec.fields || []) new platform.ConfigField(f.name, f.args);
  for (const t of spec.toggles || []) new platform.WorkflowToggle(t.name, t.args);
  for (const e of spec.events || []) new platform.ApplicationEvent(e.name, e.args);
  for (const v of spec.envValues || []) new platform.EnvVariableValue(v.name, { ...v.args, value: entryValue(v) });
  return outputs;
};
