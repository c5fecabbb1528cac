package buildcache

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel runs fn(0..n-1) on GOMAXPROCS goroutines, as the build's own
// parallel does: a look at the file system is a system call per path. The
// errors are joined in index order.
func parallel(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = fn(i)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
