// Mocha's spec reporter, plus one closing line in the plain form CI reads:
// "N passed, N failed" (", N skipped" when any test is pending).
"use strict";
const Mocha = require("mocha");
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      // Printed after the spec reporter's epilogue, so it is the run's last line.
      process.nextTick(() => {
        const skipped = pending > 0 ? `, ${pending} skipped` : "";
        process.stdout.write(`\n${passes} passed, ${failures} failed${skipped}\n`);
      });
    });
  }
}

module.exports = SummaryReporter;
