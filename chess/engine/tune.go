package engine

import (
	"fmt"
	"go/format"
	"math"
	"reflect"
	"strings"
	"sync"

	"chesstutor/chess"
)

// Sample is a position from a game with the game's result for White: 1, ½
// or 0. Tuning fits the evaluation to predict such results (Texel's
// method): the better the evaluation, the better its score, turned into a
// winning chance, foretells how the game ended.
type Sample struct {
	Pos    *chess.Position
	Result float64
}

// Tuning adjusts a copy of the hand-set weights to a set of samples.
type Tuning struct {
	samples []Sample
	k       float64 // the slope of the winning chance; see FitK
	w       weights
	params  []tuned
	workers int
}

// tuned is one adjustable number of the weights.
type tuned struct {
	name string
	v    *int
}

// NewTuning starts a tuning from the tuned weights, or from the hand-set
// ones when fromHand is set. Only numbers that change the evaluation of
// some sample are adjusted.
func NewTuning(samples []Sample, workers int, fromHand bool) *Tuning {
	t := &Tuning{samples: samples, w: tunedWeights, workers: max(workers, 1)}
	if fromHand {
		t.w = handWeights
	}
	t.w.init()
	probe := samples[:min(len(samples), 5000)]
	before := make([]int, len(probe))
	for i, s := range probe {
		before[i] = evaluate(s.Pos, &t.w)
	}
	for _, p := range weightFields(&t.w) {
		*p.v += 7
		t.w.init()
		for i, s := range probe {
			if evaluate(s.Pos, &t.w) != before[i] {
				t.params = append(t.params, p)
				break
			}
		}
		*p.v -= 7
		t.w.init()
	}
	t.k = 1
	return t
}

// eachField calls visit with the name and value of every exported field
// of w: an int or an array of ints.
func eachField(w *weights, visit func(name string, field reflect.Value)) {
	v := reflect.ValueOf(w).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() {
			visit(f.Name, v.Field(i))
		}
	}
}

// weightFields lists the exported numbers of w, named as in its source.
func weightFields(w *weights) []tuned {
	var out []tuned
	eachField(w, func(name string, field reflect.Value) {
		if field.Kind() == reflect.Int {
			out = append(out, tuned{name, field.Addr().Interface().(*int)})
			return
		}
		for j := 0; j < field.Len(); j++ {
			out = append(out, tuned{fmt.Sprintf("%s[%d]", name, j), field.Index(j).Addr().Interface().(*int)})
		}
	})
	return out
}

// Params returns the number of adjustable numbers.
func (t *Tuning) Params() int { return len(t.params) }

// Error is the mean squared difference between the samples' results and
// the winning chances the evaluation gives them.
func (t *Tuning) Error() float64 {
	sums := make([]float64, t.workers)
	var wg sync.WaitGroup
	chunk := (len(t.samples) + t.workers - 1) / t.workers
	for k := 0; k < t.workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			sum := 0.0
			for _, s := range t.samples[min(k*chunk, len(t.samples)):min((k+1)*chunk, len(t.samples))] {
				e := evaluate(s.Pos, &t.w)
				if s.Pos.Turn() == chess.Black {
					e = -e
				}
				d := s.Result - 1/(1+math.Pow(10, -t.k*float64(e)/400))
				sum += d * d
			}
			sums[k] = sum
		}(k)
	}
	wg.Wait()
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total / float64(len(t.samples))
}

// FitK chooses the slope that makes the starting weights fit best, so
// that tuning changes what the evaluation says rather than its scale.
func (t *Tuning) FitK() float64 {
	lo, hi := 0.2, 3.0
	for range 30 {
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		t.k = a
		ea := t.Error()
		t.k = b
		if ea < t.Error() {
			hi = b
		} else {
			lo = a
		}
	}
	t.k = (lo + hi) / 2
	return t.k
}

// Pass tries moving every number by step either way and keeps each move
// that lowers the error. It returns the error after the pass and how many
// numbers changed.
func (t *Tuning) Pass(step int) (float64, int) {
	best := t.Error()
	changed := 0
	for _, p := range t.params {
		for _, d := range []int{step, -step} {
			*p.v += d
			t.w.init()
			if e := t.Error(); e < best {
				best = e
				changed++
				break
			}
			*p.v -= d
			t.w.init()
		}
	}
	return best, changed
}

// Source returns the tuned weights as formatted Go source for tuned.go.
func (t *Tuning) Source(header string) (string, error) {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package engine\n\n// tunedWeights are the hand-set weights tuned on self-play (see weights).\nvar tunedWeights = weights{\n")
	eachField(&t.w, func(name string, field reflect.Value) {
		if field.Kind() == reflect.Int {
			fmt.Fprintf(&b, "\t%s: %d,\n", name, field.Int())
			return
		}
		nums := make([]string, field.Len())
		for j := range nums {
			nums[j] = fmt.Sprint(field.Index(j).Int())
		}
		fmt.Fprintf(&b, "\t%s: [%d]int{%s},\n", name, field.Len(), strings.Join(nums, ", "))
	})
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	return string(src), err
}

// Changes lists the numbers that differ from the tuned weights in use.
func (t *Tuning) Changes() []string {
	old := tunedWeights
	before := weightFields(&old)
	var out []string
	for i, p := range weightFields(&t.w) {
		if h := *before[i].v; h != *p.v {
			out = append(out, fmt.Sprintf("%s %d→%d", p.name, h, *p.v))
		}
	}
	return out
}
