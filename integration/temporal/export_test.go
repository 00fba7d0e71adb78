package wfctemporal

// DevServer starts a dev server for the external test package's example
// (example_test.go), as TestServer does.
var DevServer = devServer
