// Command sdkgen writes the package's SDKs from sdk/schema.json with Pulumi's own code generators,
// pkg/codegen at the pinned CLI's release: TypeScript, Python and Go. The .NET generator left
// pkg/codegen after v3.200.0; tools/sdkgen-dotnet runs it. Run by scripts/gen-sdk.sh; the SDKs are
// never edited by hand.
//
//	sdkgen -schema sdk/schema.json -out sdk nodejs python go
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into each file's "do not edit" header.
const tool = "pulumi-integration-platform sdkgen"

func main() {
	schemaPath := flag.String("schema", "sdk/schema.json", "the package schema")
	out := flag.String("out", "sdk", "the directory that receives one folder per language")
	flag.Parse()
	languages := flag.Args()
	if len(languages) == 0 {
		languages = []string{"nodejs", "python", "go"}
	}
	if err := run(*schemaPath, *out, languages); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string, languages []string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	for _, language := range languages {
		// Each generator records its own options in the package, so each gets a fresh binding.
		var spec schema.PackageSpec
		if err := json.Unmarshal(text, &spec); err != nil {
			return fmt.Errorf("%s: %w", schemaPath, err)
		}
		pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
		if err != nil {
			return fmt.Errorf("binding %s: %w", schemaPath, err)
		}
		if diags.HasErrors() {
			return fmt.Errorf("%s is not a valid package schema: %s", schemaPath, diags.Error())
		}
		var files map[string][]byte
		switch language {
		case "nodejs":
			files, err = nodejsgen.GeneratePackage(tool, pkg, nil, nil, false, noPackages{})
		case "python":
			files, err = pythongen.GeneratePackage(tool, pkg, nil, noPackages{})
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
		default:
			return fmt.Errorf("unknown language %q: use nodejs, python or go (dotnet: tools/sdkgen-dotnet)", language)
		}
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
		// The Python project names a README.md (PyPI's page) it does not write: the schema's
		// language.python.readme, which the generator writes only inside the package, else the description.
		if language == "python" {
			if _, ok := files["README.md"]; !ok {
				files["README.md"] = []byte(pythonReadme(spec))
			}
		}
		if err := write(filepath.Join(out, language), files); err != nil {
			return err
		}
		fmt.Printf("sdkgen: %s: %d files in %s\n", language, len(files), filepath.Join(out, language))
	}
	return nil
}

// pythonReadme is the Python project's README.md: the schema's language.python.readme, or its name and description.
func pythonReadme(spec schema.PackageSpec) string {
	var info struct {
		Readme string `json:"readme"`
	}
	if raw, ok := spec.Language["python"]; ok {
		_ = json.Unmarshal(raw, &info) // the generator has read the same options already, and refused bad ones
	}
	if info.Readme == "" {
		return fmt.Sprintf("# %s\n\n%s\n", spec.DisplayName, spec.Description)
	}
	return strings.TrimRight(info.Readme, "\n") + "\n"
}

// write replaces dir's contents with files, so that a file the generator no longer writes is gone.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noPackages is the loader the generators are given: the schema refers to no other package, so
// any request for one is a mistake in the schema, and says so.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; it should refer to none", pkg)
}

func (noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; it should refer to none", d.Name)
}

func (noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; it should refer to none", pkg)
}

func (noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; it should refer to none", d.Name)
}
