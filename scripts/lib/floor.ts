// The engine's floor for the benchmarks: the cheapest dynamic resource the engine can run, as
// program source that declares a `Noop` class taking the same inputs as the real resources.

/** Source of a program's preamble: imports @pulumi/pulumi and declares `class Noop(name, args)`. */
export const NOOP_RESOURCE = `
import * as pulumi from "@pulumi/pulumi";
const noop: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) { return { inputs: news }; },
  async diff(_id, olds, news) {
    const strip = (o: any) => JSON.stringify({ ...o, __provider: undefined });
    return { changes: strip(olds) !== strip(news) };
  },
  async create(inputs) { return { id: "noop", outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(_id, _olds, news) { return { outs: news }; },
  async delete() {},
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: any) { super(noop, name, args, {}, "bench", "Noop"); }
}
`;
