package server

import "syscall"

// lowerPriority gives the calling thread the lowest scheduling priority
// (nice 19), so that the kernel runs it only on processor time nothing
// else wants. The caller must hold its thread (runtime.LockOSThread) and
// never let it go: the thread ends with the goroutine.
func lowerPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
