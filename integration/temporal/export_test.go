package wfctemporal

import "go.temporal.io/sdk/workflow"

// DevServer starts a dev server for the external test package's example
// (example_test.go), as TestServer does.
var DevServer = devServer

func workflowOptions(name string) workflow.RegisterOptions {
	return workflow.RegisterOptions{Name: name}
}
