// Preloaded by scripts/bench-first-call.ts --cpu-prof (NODE_OPTIONS=--require): a Node.js process
// stopped by SIGINT or SIGTERM exits normally, so that --cpu-prof writes its profile.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
