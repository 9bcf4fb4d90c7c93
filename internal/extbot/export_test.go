package extbot

// Running returns how many of the engine's processes are running, idle
// or playing.
func (e *Engine) Running() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.live)
}
