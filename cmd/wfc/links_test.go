package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// mdLink finds inline Markdown links and images: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks: every relative link in README.md and docs/*.md names a file
// of the repository, and every #anchor a heading of that file (GitHub's
// slugs), so the documentation never sends a reader nowhere.
func TestDocLinks(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(stripCode(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links to %s, which does not exist", file, target)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(t, dest)[anchor] {
				t.Errorf("%s links to %s, but %s has no heading with that anchor", file, target, dest)
			}
		}
	}
}

// stripCode drops fenced code blocks, whose brackets are not links.
func stripCode(s string) string {
	var out strings.Builder
	in := false
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			out.WriteString(line)
		}
	}
	return out.String()
}

// explicitAnchor is an HTML anchor written into Markdown.
var explicitAnchor = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)

// anchors are the GitHub anchors of a Markdown file's headings.
func anchors(t *testing.T, file string) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	out := map[string]bool{}
	for _, line := range strings.Split(stripCode(string(b)), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		slug := slugify(text)
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	// Explicit anchors: <a id="…"> or <a name="…">.
	for _, m := range explicitAnchor.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = true
	}
	return out
}

// slugify is GitHub's heading anchor: lower case, punctuation dropped
// (hyphens and underscores kept), spaces to hyphens.
func slugify(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
