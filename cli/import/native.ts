// What the Python, Go, YAML and Java projects that `import --language` writes share: the versions
// they depend on (the same as examples/native's, which test/unit/importLanguages.test.ts checks),
// and their programs' opening words.
import { plural, printable } from "../text";
import type { ImportPlan } from "./plan";

/** The Pulumi SDKs the native projects depend on, as examples/native pins them. */
export const NATIVE_DEPENDENCIES = {
  /** The Python SDK's range in requirements.txt: the SDK's own (provider/native/schema.ts). */
  python: ">=3.200.0,<4.0.0",
  /** The Go SDK's module version, and the go directive of go.mod. */
  go: { sdk: "v3.259.0", directive: "1.25.11" },
  /** The Java SDK's version (com.pulumi:pulumi), the Java release compiled for, and Gson's and the Maven plugins'. */
  java: { sdk: "1.36.1", release: "17", gson: "2.10", compiler: "3.13.0", exec: "3.5.0" },
} as const;

/** The Go SDK's module (its go.mod's path): SDK_NAMES.go without its package directory. */
export const GO_SDK_MODULE = "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go";

/** The opening comment's lines, without a comment marker: what was read and what the program does. */
export function openingWords(plan: ImportPlan, loops: boolean): string[] {
  const accounts = `${plural(plan.accountsRead, "linked account")} (${printable(plan.slugs.join(", "))})`;
  return [
    `The integration platform setup of ${accounts}, brought in from the`,
    "live workspace by `pulumi-integration-platform import`. The data comes first, one entry per",
    `linked account and app; ${loops ? "the loops after it declare the resources" : "each is one resource"}. ` +
      "The first `pulumi up` takes",
    "every object over without a write to the platform. `pulumi destroy` puts back what the import",
    `found, which found.json holds${loops ? " apart from the data" : ""}; README.md says more, and what the import`,
    "could not bring in.",
  ];
}
