package codegen

import "math/rand/v2"

// drawer yields the uniform draws in [0,1) that jitter uses: replayed from
// Options.Draws (repeating from the start when they run out) or drawn from a
// PCG seeded with Options.Seed. Each consumer gets a fresh drawer, so a
// consumer's timeline does not depend on the others.
type drawer struct {
	draws []float64
	i     int
	rng   *rand.Rand
}

func newDrawer(opt Options) *drawer {
	if opt.HasSeed {
		return &drawer{rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))}
	}
	return &drawer{draws: opt.Draws}
}

func (d *drawer) next() float64 {
	if d.rng != nil {
		return d.rng.Float64()
	}
	if len(d.draws) == 0 {
		return 0.5
	}
	u := d.draws[d.i%len(d.draws)]
	d.i++
	return u
}
