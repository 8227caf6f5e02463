// Command pulumi-language-python, as the engine starts it: passes the project's
// `runtime.options.virtualenv` to the pinned Python host (v3.68, installed beside this shim as
// pulumi-language-python-host) as the -virtualenv and -root flags that host reads. Engines since
// about v3.100 send runtime options over gRPC instead of flags, which v3.68 predates, so without
// this shim the layout `pulumi new python` writes (`virtualenv: venv`) would run on the system
// Python. docs/design/languages.md tells the story.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"gopkg.in/yaml.v3"
)

// project is the part of Pulumi.yaml this shim reads.
type project struct {
	Runtime yaml.Node `yaml:"runtime"`
}

// virtualenvOption returns runtime.options.virtualenv of the Pulumi.yaml in dir, or "".
func virtualenvOption(dir string) (string, error) {
	text, err := os.ReadFile(filepath.Join(dir, "Pulumi.yaml"))
	if os.IsNotExist(err) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	var p project
	if err := yaml.Unmarshal(text, &p); err != nil {
		return "", fmt.Errorf("reading %s: %w", filepath.Join(dir, "Pulumi.yaml"), err)
	}
	// `runtime: python` (a plain name) has no options.
	if p.Runtime.Kind != yaml.MappingNode {
		return "", nil
	}
	var runtime struct {
		Options struct {
			Virtualenv string `yaml:"virtualenv"`
		} `yaml:"options"`
	}
	if err := p.Runtime.Decode(&runtime); err != nil {
		return "", fmt.Errorf("reading runtime.options of %s: %w", filepath.Join(dir, "Pulumi.yaml"), err)
	}
	return runtime.Options.Virtualenv, nil
}

func main() {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
	host := filepath.Join(filepath.Dir(self), "pulumi-language-python-host")
	// The engine starts a language host in the project's directory.
	root, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
	venv, err := virtualenvOption(root)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
	args := []string{host}
	if venv != "" {
		args = append(args, "-virtualenv="+venv, "-root="+root)
	}
	args = append(args, os.Args[1:]...)
	// Replaced, not wrapped: the engine reads the host's port from stdout and signals its process.
	if err := syscall.Exec(host, args, os.Environ()); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: starting %s: %v\n", host, err)
		os.Exit(1)
	}
}
