package javascript

// Limits of [matchAngles], so that garbage stays linear.
const (
	maxAngleTokens = 4096 // tokens scanned for one list
	maxAngleDepth  = 64   // nested lists
)

// angleStops are the words that cannot appear in a type argument list.
var angleStops = map[string]bool{
	"return": true, "if": true, "else": true, "for": true, "while": true, "do": true,
	"switch": true, "case": true, "break": true, "continue": true, "var": true, "let": true,
	"function": true, "class": true, "throw": true, "try": true, "catch": true, "finally": true,
	"delete": true, "instanceof": true, "await": true, "yield": true, "export": true,
	"with": true, "debugger": true,
}

// angleFollowers are the words that may follow a type argument list in a
// heritage clause or a type, where an expression could not go on.
var angleFollowers = map[string]bool{
	"extends": true, "implements": true, "as": true, "satisfies": true, "is": true,
}

// matchAngles pairs the < and > of TypeScript type parameter and argument
// lists, flagging both with angle and linking them through match. A < opens
// a list when, before a ; or an unmatched closer, a > closes it with only
// what a type may hold in between, and (after a name, in an expression) it
// is not followed by an operand, as in a < b > c: TypeScript's own rule for
// type arguments in expressions.
func matchAngles(t []jsTok) {
	state := make([]uint8, len(t)) // 1 failed, 2 matched
	for i := range t {
		if t[i].isPunct("<") && state[i] == 0 {
			angleAt(t, i, state, 0)
		}
	}
}

func angleAt(t []jsTok, i int, state []uint8, depth int) int {
	switch state[i] {
	case 1:
		return -1
	case 2:
		return t[i].match
	}
	state[i] = 1
	if i == 0 || depth > maxAngleDepth {
		return -1
	}
	switch prev := &t[i-1]; prev.kind {
	case jsNum, jsStr, jsRegex:
		return -1
	case jsTmpl:
		if prev.flags&(tmplHead|tmplMiddle) == 0 {
			return -1
		}
	case jsPunct:
		if prev.text == ")" || prev.text == "]" || prev.text == "}" {
			return -1
		}
	}
	afterName := t[i-1].kind == jsName && !angleFollowers[t[i-1].text]
	for j, n := i+1, 0; j < len(t) && n < maxAngleTokens; n++ {
		tk := &t[j]
		if tk.jsx {
			return -1
		}
		switch tk.kind {
		case jsPunct:
			switch tk.text {
			case ">":
				if afterName && j+1 < len(t) && !t[j+1].nl {
					switch nx := &t[j+1]; nx.kind {
					case jsNum, jsStr, jsRegex, jsPrivate:
						return -1
					case jsName:
						if !angleFollowers[nx.text] {
							return -1
						}
					}
				}
				t[i].match, t[j].match = j, i
				t[i].flags |= angle
				t[j].flags |= angle
				state[i] = 2
				return j
			case "<":
				k := angleAt(t, j, state, depth+1)
				if k < 0 {
					return -1
				}
				j = k + 1
				continue
			case "(", "[", "{":
				if tk.match < 0 {
					return -1
				}
				j = tk.match + 1
				continue
			case ",", ".", "|", "&", "?", ":", "=", "=>", "...", "-", "?.":
			default:
				return -1
			}
		case jsTmpl:
			if tk.match > j {
				j = tk.match
			}
		case jsName:
			if angleStops[tk.text] {
				return -1
			}
		case jsNum, jsStr:
		default:
			return -1
		}
		j++
	}
	return -1
}
