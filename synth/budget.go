package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Token budgets of search and lookup (SPEC 5). A budgeted answer sheds
// whole sections, in a fixed order, until its JSON fits; the budget report
// says what was shed. Without a budget nothing is shed.

// Estimator names how tokens are estimated: the bytes of the compact JSON
// as printed (final newline included), divided by 4, rounded up.
const Estimator = "bytes/4"

// Budget reports how an answer was fitted to a token budget.
type Budget struct {
	Tokens    int    `json:"tokens"`    // the budget asked for
	Estimate  int    `json:"estimate"`  // the answer's tokens, this report included
	Estimator string `json:"estimator"` // always Estimator
	// Fits is false when even the answer with everything sheddable shed is
	// over the budget.
	Fits bool `json:"fits"`
	// Shed lists what was left out, in the order it was shed.
	Shed []string `json:"shed"`
}

// MarshalCompact is the encoder of search and lookup answers: compact
// JSON on one line, no HTML escaping, and a final newline. Budgets are
// estimated on exactly these bytes.
func MarshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// EstimateTokens is the Estimator.
func EstimateTokens(data []byte) int { return (len(data) + 3) / 4 }

// settle sets b's estimate to that of v, whose JSON holds b: a fixed point,
// since the estimate's own digits, and whether it fits, count.
func settle(v any, b *Budget) {
	for range 8 {
		b.Fits = b.Estimate <= b.Tokens
		data, err := MarshalCompact(v)
		if err != nil {
			panic(fmt.Sprintf("synth: encode a knowledge answer: %v", err)) // plain structs always encode
		}
		e := EstimateTokens(data)
		if e == b.Estimate {
			break
		}
		b.Estimate = e
	}
	b.Fits = b.Estimate <= b.Tokens
}

// shedStep sheds one section of an answer and returns what it shed, or ""
// when there was nothing to shed.
type shedStep func() string

// fit sheds steps in order until v fits its budget b (which v's JSON
// holds).
func fit(v any, b *Budget, steps []shedStep) {
	b.Estimator, b.Shed = Estimator, []string{}
	settle(v, b)
	for _, step := range steps {
		if b.Fits {
			return
		}
		if what := step(); what != "" {
			b.Shed = append(b.Shed, what)
			settle(v, b)
		}
	}
}

// keepFirst sheds the tail of a list: it keeps the longest prefix of n
// items with which v fits (at least keep), found by bisection. set keeps
// the first k items; label names what is shed when k items are kept. It
// returns "" when nothing past keep can go.
func keepFirst(v any, b *Budget, n, keep int, set func(k int), label func(k int) string) string {
	if n <= keep {
		return ""
	}
	try := func(k int) bool {
		set(k)
		b.Shed = append(b.Shed, label(k))
		settle(v, b)
		b.Shed = b.Shed[:len(b.Shed)-1]
		return b.Fits
	}
	lo, hi := keep, n-1 // the answer is in [lo, hi]; n items did not fit
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if try(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	set(lo)
	return label(lo)
}
