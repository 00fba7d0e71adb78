package check

import "sort"

// byName maps a workflow's names to their first declarations (states,
// events). Most workflows declare a few of each, so it is a short list
// searched in place until it grows past smallScope entries, then a map:
// the checker holds one per workflow for the whole check, and two maps
// each were a third of what it held for 100,000 one-line workflows.
type byName[T comparable] struct {
	few []entry[T]
	m   map[string]T // once past smallScope
}

type entry[T any] struct {
	name string
	v    T
}

// newByName is a table for up to n names.
func newByName[T comparable](n int) byName[T] {
	if n > smallScope {
		return byName[T]{m: make(map[string]T, n)}
	}
	return byName[T]{few: make([]entry[T], 0, n)}
}

// put sets name's value (callers put each name once: the first
// declaration).
func (b *byName[T]) put(name string, v T) {
	switch {
	case b.m != nil:
		b.m[name] = v
	case len(b.few) < smallScope:
		b.few = append(b.few, entry[T]{name, v})
	default:
		b.m = make(map[string]T, 2*smallScope)
		for _, e := range b.few {
			b.m[e.name] = e.v
		}
		b.m[name] = v
		b.few = nil
	}
}

// get is name's value and whether it has one.
func (b *byName[T]) get(name string) (T, bool) {
	if b.m != nil {
		v, ok := b.m[name]
		return v, ok
	}
	for _, e := range b.few {
		if e.name == name {
			return e.v, true
		}
	}
	var zero T
	return zero, false
}

// lookup is name's value, or the zero value.
func (b *byName[T]) lookup(name string) T {
	v, _ := b.get(name)
	return v
}

// keys are the names, sorted.
func (b *byName[T]) keys() []string {
	if b.m != nil {
		return keys(b.m)
	}
	out := make([]string, 0, len(b.few))
	for _, e := range b.few {
		out = append(out, e.name)
	}
	sort.Strings(out)
	return out
}
