package cfamily

// The unexported project and test functions, for the external tests
// (package cfamily_test), which parse reports through codeanchors.
var (
	MatchTests = matchTests
	IsTestFile = isTest
	NewLinker  = newLinker
)
