package wfc

// CacheEverything makes every file, however small, worth an entry, so the
// tests of sessions over a cache exercise it with small programs; the
// returned function restores the threshold.
func CacheEverything() (restore func()) {
	old := minCached
	minCached = 0
	return func() { minCached = old }
}
