// compose-check loads a Compose file the way `docker compose` does (compose-go: the Compose
// Specification's JSON schema, interpolation, anchors and merge keys, then the model's own
// consistency checks: depends_on targets, profiles, volumes) and prints the resolved model as JSON,
// so the project's tests can assert on what Compose would run without a Docker engine.
// usage: compose-check FILE [--profile NAME ...]
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check FILE [--profile NAME ...]")
		os.Exit(2)
	}
	file := os.Args[1]
	var profiles []string
	for i := 2; i < len(os.Args); i++ {
		if os.Args[i] == "--profile" && i+1 < len(os.Args) {
			profiles = append(profiles, os.Args[i+1])
			i++
		}
	}
	dir, _ := filepath.Abs(filepath.Dir(file))
	options, err := cli.NewProjectOptions(
		[]string{file},
		cli.WithWorkingDirectory(dir),
		cli.WithOsEnv,
		cli.WithProfiles(profiles),
		cli.WithConsistency(true),
		cli.WithResolvedPaths(false),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose-check:", err)
		os.Exit(1)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose-check:", err)
		os.Exit(1)
	}
	out, err := json.MarshalIndent(project, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose-check:", err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}
