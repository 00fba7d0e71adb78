package check

import "slices"

// TestItems are the statements a test may hold (`Send`, `Take`, `Start`,
// `Fail`, `Expect.State` …), as written, in the table "did you mean" reads;
// the playground's highlighting is generated from it.
func TestItems() []string { return slices.Clone(testItems) }
