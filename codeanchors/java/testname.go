package java

import (
	"slices"
	"strings"
)

// testAnnotations are the annotations that make a method a test: JUnit 4
// and 5 (@Test, @ParameterizedTest, @RepeatedTest, @TestFactory,
// @TestTemplate, JUnit 4's @Theory) and TestNG (@Test). They are matched by
// simple name, as written (org.junit.jupiter.api.Test reads Test).
var testAnnotations = []string{"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Theory"}

// isTestMethod reports whether a method annotated annots is a test by its
// annotations. The other rules are in [parser.method]: in a class that
// extends TestCase (JUnit 3) a public method named test... ([isJUnit3Name]),
// and in a class annotated @Test (TestNG) every public method.
func isTestMethod(annots []string) bool {
	for _, a := range annots {
		if slices.Contains(testAnnotations, a) {
			return true
		}
	}
	return false
}

// isJUnit3Name reports whether name is a JUnit 3 test method name: one
// that starts with test, as JUnit 3's TestSuite decides.
func isJUnit3Name(name string) bool {
	return strings.HasPrefix(name, "test")
}
