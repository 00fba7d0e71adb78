package lsp

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// A client that cannot watch files (Neovim 0.7 registers no watchers)
// never says that a closed file was moved, deleted or edited on disk: the
// server would keep checking, and publishing diagnostics for, a file that
// no longer exists. For such a client the server polls: every
// Options.Poll it looks at the files it holds from disk (one stat each),
// forgets those that are gone, reads again those whose size or time
// changed, and — if the folders are small enough to walk again cheaply —
// reads new *.wf files.

// Between two polls a check (after an edit of an open buffer) would still
// hold a closed file deleted or moved since the last: before each check,
// for a client that watches no files, the server also stats the closed
// files it holds (outside its lock) and forgets those that are gone
// (dropGone). A file changed or created is left to the poll, which reads.

// DefaultPoll is how often a server polls the disk for a client that does
// not watch files.
const DefaultPoll = 2 * time.Second

// maxPollWalk is the most directory entries a poll walks again to find new
// files; a larger workspace is polled for the files it holds only.
const maxPollWalk = 10_000

// startPoll polls the disk until the session ends, once the load is done.
func (s *Server) startPoll(ld *loader) {
	if s.opt.Poll < 0 {
		return
	}
	go func() {
		select {
		case <-ld.done:
		case <-ld.stop:
			return
		}
		walk := !ld.truncated && ld.entries <= maxPollWalk
		t := time.NewTicker(s.opt.Poll)
		defer t.Stop()
		for {
			select {
			case <-ld.stop:
				return
			case <-t.C:
				s.pollOnce(walk)
			}
		}
	}()
}

// pollOnce looks at the disk once, and updates the workspace (a new
// check) only if something changed.
func (s *Server) pollOnce(walkAgain bool) {
	var fsys folders
	known := map[string]stamp{}
	s.ck.read(func(ws *workspace) {
		fsys = ws.folders.clone()
		for name, st := range ws.stamps {
			known[name] = st
		}
	})
	type change struct {
		src  string
		st   stamp
		drop bool
	}
	changes := map[string]change{}
	reread := func(name string) {
		b, st, gone, err := fsys.readDisk(name, maxDiskFile)
		switch {
		case gone:
			changes[name] = change{drop: true}
		case err != nil:
			s.notice("%s: %v", name, err)
			changes[name] = change{drop: true}
		default:
			changes[name] = change{src: string(b), st: st}
		}
	}
	for name, st := range known {
		info, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes[name] = change{drop: true}
		case err != nil:
		case stampOf(info) != st:
			reread(name)
		}
	}
	if walkAgain {
		entries := 0
		for _, dir := range fsys.named {
			walk(dir, s.logf, func() bool { entries++; return entries <= maxPollWalk }, func(p string) bool {
				if _, ok := known[p]; !ok {
					reread(p)
				}
				return true
			})
		}
	}
	if len(changes) == 0 {
		return
	}
	s.ck.update(func(ws *workspace) {
		for name, c := range changes {
			if c.drop {
				ws.dropDisk(name)
			} else {
				ws.setDisk(name, c.src, c.st)
			}
		}
	})
}

// dropGone forgets the closed files the workspace holds that no longer
// exist on disk, when the client watches no files (a watching client says
// so itself), and counts that as a change of the workspace. It is called
// before each check; open buffers are the client's and stay.
func (c *checker) dropGone() {
	c.s.mu.Lock()
	watch := c.s.watch
	c.s.mu.Unlock()
	if watch {
		return
	}
	var names []string
	c.mu.Lock()
	if !c.stopped {
		for name := range c.ws.disk {
			if c.ws.open[name] == nil {
				names = append(names, name)
			}
		}
	}
	c.mu.Unlock()
	var gone []string
	for _, name := range names {
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, name)
		}
	}
	if len(gone) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	changed := false
	for _, name := range gone {
		if _, held := c.ws.disk[name]; held && c.ws.open[name] == nil {
			c.ws.dropDisk(name)
			changed = true
		}
	}
	if changed {
		c.gen++
	}
}
