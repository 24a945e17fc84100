// promql-check parses PromQL expressions, one per line on standard input, with Prometheus's own
// parser (github.com/prometheus/prometheus/promql/parser), so the chart's alert rules and the
// Grafana dashboard's queries are checked offline (test/deploy/manifests.test.ts). It prints
// "ok<TAB>expr" or "error<TAB>expr<TAB>reason" per line and exits 1 when any line fails.
// scripts/ensure-k8s-tools.sh builds it into tools/bin.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/prometheus/prometheus/promql/parser"
)

func main() {
	failed := false
	p := parser.NewParser(parser.Options{})
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		expr := scanner.Text()
		if expr == "" {
			continue
		}
		if _, err := p.ParseExpr(expr); err != nil {
			failed = true
			fmt.Printf("error\t%s\t%v\n", expr, err)
		} else {
			fmt.Printf("ok\t%s\n", expr)
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}
