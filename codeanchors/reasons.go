package codeanchors

import "strings"

// State is the live state of a link: linked, stale or unknown; or
// superseded, for an evidence entry that is history.
type State string

// Link states.
const (
	Linked  State = "linked"
	Stale   State = "stale"
	Unknown State = "unknown"
	// Superseded is the state of an evidence entry older than its
	// requirement's newest one (SPEC 1.5): history, not a live link. It has
	// no reason, is never a problem and never a graph edge.
	Superseded State = "superseded"
)

// Problem reports whether a link in state s is a finding: stale or
// unknown. Linked links and superseded evidence entries are not.
func (s State) Problem() bool { return s == Stale || s == Unknown }

// supersededWhy is the why of a superseded evidence entry, in every
// supported language; %s is the newer run's node id (run:ID).
var supersededWhy = map[string]string{
	"en": "superseded by %s",
	"es": "sustituida por %s",
}

// Reason says why a link is not linked. The empty reason goes with Linked.
type Reason string

// Drift reasons, as in SPEC 2.
const (
	ContentChanged       Reason = "content_changed"
	SymbolNotFound       Reason = "symbol_not_found"
	PathOutsideWorkspace Reason = "path_outside_workspace"
	RequirementChanged   Reason = "requirement_changed_since_verification"
	CodeChanged          Reason = "code_changed_since_verification"
	TestsFailed          Reason = "tests_failed"
	ParentChanged        Reason = "parent_changed"
	TargetMissing        Reason = "target_missing"
	Ambiguous            Reason = "ambiguous"
	Uncaptured           Reason = "uncaptured"
	NotIncluded          Reason = "not_included"
	ExternalChanged      Reason = "external_changed"
)

// reasonText is a reason's state and its messages in every supported
// language: the why, the why of a target that never existed (only for the
// reasons a never-captured target can get: the same reason, worded so it
// is not mistaken for drift), the why of one link between requirements
// (only for parent_changed: it names the child, which is what is suspect,
// and its parent, which only changed), and what to do about it, in one
// line. A why or to-do may name the link's REF, CHILD and PARENT; [Fill]
// puts them in.
type reasonText struct {
	state            State
	whyEN, whyES     string
	neverEN          string
	neverES          string
	childEN, childES string
	todoEN, todoES   string
}

// reasons is the one table that gives each reason its state and its
// messages in every supported language. Everything that shows a reason
// reads it here.
var reasons = map[Reason]reasonText{
	ContentChanged: {state: Stale,
		whyEN:  "the anchored code changed since the link was captured",
		whyES:  "el fichero cambió desde que se enlazó",
		todoEN: "review the change; if the claim still holds, run: tracewiki capture REF",
		todoES: "revise el cambio; si la afirmación sigue siendo cierta, ejecute: tracewiki capture REF"},
	SymbolNotFound: {state: Stale,
		whyEN: "the symbol is no longer in the file", whyES: "el símbolo ya no está en el fichero",
		neverEN: "the symbol does not exist in the file", neverES: "el símbolo no existe en el fichero",
		todoEN: "point the link at the symbol's new name (tracewiki relink follows a moved one), or remove the claim",
		todoES: "apunte el enlace al nuevo nombre del símbolo (tracewiki relink sigue uno movido), o quite la afirmación"},
	PathOutsideWorkspace: {state: Stale,
		whyEN: "the target lies outside the workspace", whyES: "el objetivo queda fuera del workspace",
		todoEN: "point the link at a file inside the workspace",
		todoES: "apunte el enlace a un fichero dentro del workspace"},
	RequirementChanged: {state: Stale,
		whyEN:  "evidence expired: the requirement changed after it was verified",
		whyES:  "evidencia caducada: el requisito cambió desde que se verificó",
		todoEN: "run the requirement's tests again and record them: tracewiki evidence --run ID --report FILE",
		todoES: "vuelva a ejecutar las pruebas del requisito y regístrelas: tracewiki evidence --run ID --report FILE"},
	CodeChanged: {state: Stale,
		whyEN:  "evidence expired: the code changed after it was verified",
		whyES:  "evidencia caducada: el código cambió desde que se verificó",
		todoEN: "run the requirement's tests again and record them: tracewiki evidence --run ID --report FILE",
		todoES: "vuelva a ejecutar las pruebas del requisito y regístrelas: tracewiki evidence --run ID --report FILE"},
	TestsFailed: {state: Stale,
		whyEN:  "the linked tests failed in this run",
		whyES:  "las pruebas enlazadas fallaron en esta ejecución",
		todoEN: "fix the code or the tests, run them again and record them: tracewiki evidence --run ID --report FILE",
		todoES: "corrija el código o las pruebas, vuelva a ejecutarlas y regístrelas: tracewiki evidence --run ID --report FILE"},
	TargetMissing: {state: Unknown,
		whyEN: "the link's target no longer exists", whyES: "el objetivo del enlace ya no existe",
		neverEN: "the link's target does not exist", neverES: "el objetivo del enlace no existe",
		todoEN: "point the link at what replaced the target (tracewiki relink follows a moved one), or remove it",
		todoES: "apunte el enlace a lo que sustituyó al objetivo (tracewiki relink sigue uno movido), o quítelo"},
	Ambiguous: {state: Unknown,
		whyEN:  "the symbol is defined more than once in the file",
		whyES:  "el símbolo está definido más de una vez en el fichero",
		todoEN: "link the file or a line range instead, or make the name unique",
		todoES: "enlace el fichero o un rango de líneas, o haga el nombre único"},
	ParentChanged: {state: Stale,
		whyEN:   "suspect: the parent requirement changed after this one was reviewed",
		whyES:   "sospechoso: el requisito padre cambió desde que se revisó este",
		childEN: "CHILD is suspect: its parent PARENT changed after CHILD was reviewed",
		childES: "CHILD es sospechoso: su padre PARENT cambió desde que se revisó CHILD",
		todoEN:  "read PARENT's new text, update CHILD if needed, then run: tracewiki review CHILD",
		todoES:  "lea el nuevo texto de PARENT, actualice CHILD si hace falta y ejecute: tracewiki review CHILD"},
	Uncaptured: {state: Unknown,
		whyEN: "the link has not been captured yet", whyES: "el enlace aún no se ha capturado",
		todoEN: "anchor it to the code it names: tracewiki capture",
		todoES: "ánclelo al código que nombra: tracewiki capture"},
	NotIncluded: {state: Unknown,
		whyEN:  "the target lies outside the code the configuration includes",
		whyES:  "el objetivo queda fuera del código incluido en la configuración",
		todoEN: "add the file to [code] include in tracewiki.toml (or take it out of exclude), or link the whole file or a line range",
		todoES: "añada el fichero a [code] include en tracewiki.toml (o sáquelo de exclude), o enlace el fichero entero o un rango de líneas"},
	ExternalChanged: {state: Unknown,
		whyEN:  "the other repository's bundle changed since it was pinned",
		whyES:  "el paquete del otro repositorio cambió desde que se fijó",
		todoEN: "review the links into REF (check shows each one's state), then pin the bundle: tracewiki capture",
		todoES: "revise los enlaces a REF (check muestra el estado de cada uno) y fije el paquete: tracewiki capture"},
}

// Reasons lists every reason in the order of SPEC 2.
var Reasons = []Reason{ContentChanged, SymbolNotFound, PathOutsideWorkspace, RequirementChanged, CodeChanged, TestsFailed, ParentChanged, TargetMissing, Ambiguous, Uncaptured, NotIncluded, ExternalChanged}

// ParseReason returns the reason named s; ok is false for a name that is
// not a reason.
func ParseReason(s string) (Reason, bool) {
	_, ok := reasons[Reason(s)]
	return Reason(s), ok
}

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
	m := reasons[r]
	if lang == "es" {
		return m.whyES
	}
	return m.whyEN
}

// WhyNever returns the why of a target that was never captured and does
// not exist: for symbol_not_found and target_missing it says "does not
// exist" instead of "no longer"; other reasons have their usual why.
func (r Reason) WhyNever(lang string) string {
	m := reasons[r]
	switch {
	case m.neverEN == "":
		return r.Why(lang)
	case lang == "es":
		return m.neverES
	}
	return m.neverEN
}

// WhyLink returns the why of one parent link, in lang, naming the child
// and the parent (put in with [Fill]): "SW-1 is suspect: its parent SYS-1
// changed after SW-1 was reviewed". It is empty for a reason without one.
func (r Reason) WhyLink(lang string) string {
	m := reasons[r]
	if lang == "es" {
		return m.childES
	}
	return m.childEN
}

// Fill puts a link's ref, child and parent into a why or a to-do where it
// names REF, CHILD or PARENT (in one pass: a value is never filled again).
func Fill(text, ref, child, parent string) string {
	return strings.NewReplacer("REF", ref, "CHILD", child, "PARENT", parent).Replace(text)
}

// ToDo returns one line saying what to do about a link with the reason, in
// lang, naming REF, CHILD or PARENT where they apply (see [Fill]); empty
// for the empty reason.
func (r Reason) ToDo(lang string) string {
	m := reasons[r]
	if lang == "es" {
		return m.todoES
	}
	return m.todoEN
}
