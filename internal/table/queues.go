package table

import (
	"maps"
	"slices"
)

// Every queue of the manager is bounded, and its depth is read by the
// metrics at each scrape (Metrics.Depth), never counted on a hot path:
//
//   - a table's inbox: Config.Inbox for the work connections and
//     requests bring, refused past it (table.go);
//   - the actors' ready list: each table with work at most once, so no
//     more than the live tables (actors.go);
//   - a table's chat waiting to be stored: Config.ChatQueue, chat refused
//     past it (chat.go);
//   - the search pool's queue: Config.SearchQueue decisions, the
//     heuristic moving past it (searchpool.go).

// depths has the metrics read the depths of the manager's queues.
func (m *Manager) depths() {
	m.stats.Depth("inbox", func() int { n, _ := m.inboxes(); return n })
	m.stats.Depth("inbox_max", func() int { _, most := m.inboxes(); return most })
	m.stats.Depth("actors_ready", m.actors.waiting)
	m.stats.Depth("chat", func() int { return int(m.chatQueued.Load()) })
	m.stats.Depth("search_queued", m.searches.waiting)
	m.stats.Depth("search_busy", m.searches.running)
	m.stats.Depth("search_workers", func() int { return m.searches.size })
}

// inboxes returns the work waiting in the live tables' inboxes, summed,
// and the most waiting in one.
func (m *Manager) inboxes() (sum, most int) {
	m.mu.Lock()
	live := slices.Collect(maps.Values(m.tables))
	m.mu.Unlock()
	for _, t := range live {
		n := t.inboxDepth()
		sum += n
		most = max(most, n)
	}
	return sum, most
}
