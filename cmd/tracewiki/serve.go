package main

func runServe(e *env, args []string) int {
	return e.usage("serve: not written yet")
}
