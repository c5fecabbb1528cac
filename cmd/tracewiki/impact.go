package main

func runImpact(e *env, args []string) int {
	return e.usage("impact: not written yet")
}
