// `pulumi-resource-integration-platform`: the native provider's plugin. The engine starts it with
// its own address and reads the port it listens on from the first line of stdout.
import { enableCompileCache } from "./compileCache";
import { wrongInstall } from "./installedVersion";

const { version } = require("../../../package.json") as { version: string };
// `-version`, as Pulumi's own plugins answer it: what a user or a release check asks of an executable.
if (process.argv.slice(2).some((arg) => arg === "-version" || arg === "--version")) {
  console.log(version);
  process.exit(0);
}
// Installed by the CLI under another version than its own: say so and how to fix it, rather than serve.
// The executable is execPath in the release's single executable, the script (argv[1]) under `node`.
const wrong = wrongInstall(version, [process.execPath, process.argv[1]]);
if (wrong) {
  console.error(wrong);
  process.exit(1);
}

// Under `node` (the npm package), V8's code for every module loaded from here on is kept for the next
// start (compileCache.ts); the single executable has its script's cache built in.
if (!require("node:sea").isSea()) enableCompileCache();

/** The engine's address: the first argument that is not a flag (`--logtostderr`, `-v=9`, `--tracing …`). */
const engine = process.argv.slice(2).find((arg, i, args) => !arg.startsWith("-") && args[i - 1] !== "--tracing");
// The SDK's log (a warning at delete, say) reaches the engine, and so the CLI's output, through this address.
if (engine) process.env.PULUMI_NODEJS_ENGINE = engine;

// Loaded after the address is set (the SDK reads it when first asked to log) and the compile cache is
// enabled. Only gRPC, the stubs and the first answer's module load here; the rest of the provider
// loads after that answer (service.ts).
const grpc = require("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const { ResourceProviderService } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const { pluginService } = require("./service") as typeof import("./service");

// A stack's whole state may come in one call (a large refresh): the engine's own limit, not gRPC's 4 MiB.
const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(ResourceProviderService, pluginService(version, engine));
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    console.error(`pulumi-resource-integration-platform: cannot listen on 127.0.0.1: ${error.message}`);
    process.exit(1);
  }
  console.log(String(port));
});
