package main

func runDiff(e *env, args []string) int {
	return e.usage("diff: not written yet")
}
