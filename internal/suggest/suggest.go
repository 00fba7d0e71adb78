// Package suggest finds the name a misspelt one was meant to be ("did you
// mean"), for the parser (misspelt keywords) and the checker (every
// namespace) alike, so the two agree on what is close. It is bounded per
// name: a suggestion costs a constant however many candidates there are.
package suggest

import (
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Suggestions ("did you mean") must stay cheap on hostile input: a file of
// 10,000 unknown `goto`s in a workflow of 10,000 states must not compute
// 10^8 edit distances. A nameSet is built once per candidate list, answers
// a repeated name from memory, filters by length before computing a
// distance, tries the candidates that share the name's first letter first
// (typos rarely change it), and computes at most maxDistances distances per
// name, so a suggestion costs a constant, whatever the number of candidates.

// maxDistances bounds the edit distances computed for one name; maxScanned
// bounds the candidates looked at (by length) for it.
const (
	maxDistances = 64
	maxScanned   = 1024
)

// Set is a list of candidate names prepared for suggestions. It is not
// safe for concurrent use (it remembers its answers).
type Set struct {
	names   []string // sorted, unique
	lower   []string
	runes   []int
	byFirst map[byte][]int // indices by lower-cased first byte
	memo    map[string]string
}

// NewSet prepares names (any order, duplicates allowed).
func NewSet(names []string) *Set {
	s := &Set{names: slices.Compact(slices.Sorted(slices.Values(names))), byFirst: map[byte][]int{}, memo: map[string]string{}}
	s.lower = make([]string, len(s.names))
	s.runes = make([]int, len(s.names))
	for i, n := range s.names {
		s.lower[i] = strings.ToLower(n)
		s.runes[i] = utf8.RuneCountInString(n)
		if n != "" {
			s.byFirst[s.lower[i][0]] = append(s.byFirst[s.lower[i][0]], i)
		}
	}
	return s
}

// Closest returns the candidate nearest to name, or "" when none is close:
// within a third of its length in edits (transpositions count once). Ties go
// to the longer common prefix (`FromSecs` → `FromSeconds`), then to the
// alphabetically first.
func (s *Set) Closest(name string) string {
	if best, ok := s.memo[name]; ok {
		return best
	}
	q := query{name: name, lname: strings.ToLower(name), runes: utf8.RuneCountInString(name), limit: max(1, (len(name)+1)/3), bestD: -1}
	var first byte
	if name != "" {
		first = q.lname[0]
		for _, i := range s.byFirst[first] {
			if !q.try(s, i) {
				break
			}
		}
	}
	for i := range s.names {
		if s.lower[i] != "" && s.lower[i][0] == first {
			continue // tried above
		}
		if !q.try(s, i) {
			break
		}
	}
	Compared.Add(int64(q.scanned))
	if q.best == "" {
		q.best = s.extension(q.lname)
	}
	s.memo[name] = q.best
	return q.best
}

// sameStem reports whether two names share their first half and at least
// four letters: `Packing` and `Packed`, two forms of one word.
func sameStem(a, b string) bool {
	p := commonPrefix(a, b)
	return p >= 4 && 2*p >= len(b)
}

// extension finds, when no candidate is a few edits away, one that the
// name is a clipped or partial spelling of: `Sku` for `SkuKind`, `Retry`
// for `Retries` (all of the name but its last letter begins the
// candidate), `Kind` for `SkuKind` (the candidate contains it), `Packing`
// for `Packed` (sameStem). Names
// shorter than three letters match nothing. The shortest such candidate
// wins, then the alphabetically first; at most maxScanned are looked at.
func (s *Set) extension(lname string) string {
	n := utf8.RuneCountInString(lname)
	if n < 3 {
		return ""
	}
	stem := lname
	if n > 3 {
		_, last := utf8.DecodeLastRuneInString(lname)
		stem = lname[:len(lname)-last]
	}
	best := -1
	Compared.Add(int64(min(len(s.names), maxScanned)))
	for i := range s.names {
		if i >= maxScanned {
			break
		}
		l := s.lower[i]
		if l == lname {
			continue
		}
		if !strings.HasPrefix(l, stem) && !strings.Contains(l, lname) && !sameStem(l, lname) {
			continue
		}
		if best < 0 || s.runes[i] < s.runes[best] {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return s.names[best]
}

// query is one name's search through a nameSet.
type query struct {
	name, lname      string
	runes, limit     int
	best             string
	bestD, bestP     int
	scanned, compute int
}

// try considers candidate i; it returns false when the budget is spent.
func (q *query) try(s *Set, i int) bool {
	if q.scanned >= maxScanned || q.compute >= maxDistances {
		return false
	}
	q.scanned++
	cand := s.names[i]
	if cand == q.name || abs(s.runes[i]-q.runes) > q.limit {
		return true
	}
	q.compute++
	d := Distance(q.lname, s.lower[i], q.limit)
	if d > q.limit {
		return true
	}
	p := commonPrefix(q.name, cand)
	if q.bestD < 0 || d < q.bestD || d == q.bestD && (p > q.bestP || p == q.bestP && cand < q.best) {
		q.best, q.bestD, q.bestP = cand, d, p
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Closest is Set.Closest for a small list used once.
func Closest(name string, candidates []string) string {
	return NewSet(candidates).Closest(name)
}

// Names are the set's candidates, sorted, each once.
func (s *Set) Names() []string { return s.names }

// Has reports whether name is one of the set's names, in O(log n)
// comparisons: an enum of 160,000 members with a case each stays linear.
func (s *Set) Has(name string) bool {
	compared := int64(0)
	_, found := slices.BinarySearchFunc(s.names, name, func(a, b string) int {
		compared++
		return strings.Compare(a, b)
	})
	Compared.Add(compared)
	return found
}

// Compared counts the names compared with the names looked up: the
// candidates a suggestion considers, the comparisons of Has. It only grows.
// The checker's scaling tests read it to prove that suggestions and lookups
// stay linear in the names (a count, unlike a time, does not depend on the
// machine).
var Compared atomic.Int64

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Distance is the optimal-string-alignment distance of a and b, in code
// points: insertions, deletions, substitutions and transpositions of
// neighbours (`Strat` is one step from `Start`). It is not Levenshtein's,
// which counts a transposition as two. Past limit it stops early and
// returns limit+1; names longer than 64 code points are only ever equal.
func Distance(a, b string, limit int) int {
	const most = 64 // longer names are compared for equality only
	var ra, rb [most]rune
	la, lb := 0, 0
	for _, r := range a {
		if la == most {
			return limit + 1
		}
		ra[la], la = r, la+1
	}
	for _, r := range b {
		if lb == most {
			return limit + 1
		}
		rb[lb], lb = r, lb+1
	}
	// d[i][j] over three rolling rows, on the stack.
	var rows [3][most + 1]int
	pp, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit && prevMin > limit {
			// Every later cell comes from this row or the one before (a
			// transposition), plus a non-negative cost: all past limit.
			return limit + 1
		}
		prevMin = rowMin
		pp, prev, cur = prev, cur, pp
	}
	return prev[lb]
}
