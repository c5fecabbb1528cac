package codeanchors

// State is the live state of a link: linked, stale or unknown.
type State string

// Link states.
const (
	Linked  State = "linked"
	Stale   State = "stale"
	Unknown State = "unknown"
)

// Reason says why a link is not linked. The empty reason goes with Linked.
type Reason string

// Drift reasons, as in SPEC 2.
const (
	ContentChanged       Reason = "content_changed"
	SymbolNotFound       Reason = "symbol_not_found"
	PathOutsideWorkspace Reason = "path_outside_workspace"
	RequirementChanged   Reason = "requirement_changed_since_verification"
	TargetMissing        Reason = "target_missing"
	Ambiguous            Reason = "ambiguous"
	Uncaptured           Reason = "uncaptured"
)

// reasons is the one table that gives each reason its state and its why in
// every supported language. Everything that shows a reason reads it here.
var reasons = map[Reason]struct {
	state State
	whyEN string
	whyES string
}{
	ContentChanged:       {Stale, "the anchored code changed since the link was captured", "el fichero cambió desde que se enlazó"},
	SymbolNotFound:       {Stale, "the symbol is no longer in the file", "el símbolo ya no está en el fichero"},
	PathOutsideWorkspace: {Stale, "the target lies outside the workspace", "el objetivo queda fuera del workspace"},
	RequirementChanged:   {Stale, "evidence expired: the requirement changed after it was verified", "evidencia caducada: el requisito cambió desde que se verificó"},
	TargetMissing:        {Unknown, "the link's target no longer exists", "el objetivo del enlace ya no existe"},
	Ambiguous:            {Unknown, "the symbol is defined more than once in the file", "el símbolo está definido más de una vez en el fichero"},
	Uncaptured:           {Unknown, "the link has not been captured yet", "el enlace aún no se ha capturado"},
}

// Reasons lists every reason in the order of SPEC 2.
var Reasons = []Reason{ContentChanged, SymbolNotFound, PathOutsideWorkspace, RequirementChanged, TargetMissing, Ambiguous, Uncaptured}

// Languages are the message languages [Reason.Why] knows; "en" is the default.
var Languages = []string{"en", "es"}

// State returns the link state a reason gives: Linked for the empty reason.
func (r Reason) State() State {
	if r == "" {
		return Linked
	}
	return reasons[r].state
}

// Why returns the reason's explanation in lang ("en" or "es"; anything else
// is English). The empty reason has an empty why.
func (r Reason) Why(lang string) string {
	m, ok := reasons[r]
	if !ok {
		return ""
	}
	if lang == "es" {
		return m.whyES
	}
	return m.whyEN
}
