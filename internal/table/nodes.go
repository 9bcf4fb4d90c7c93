package table

import (
	"context"
	"fmt"
)

// NodeAddr returns where node id of the cluster is reached (the address
// it advertises), if it has been seen lately; ErrNotFound for a manager
// that runs alone or a node not seen.
func (m *Manager) NodeAddr(ctx context.Context, id string) (string, error) {
	if !m.clustered() {
		return "", fmt.Errorf("%w: node %s (no cluster)", ErrNotFound, id)
	}
	n, err := m.cluster.Node(ctx, id, 3*m.cfg.LeaseTTL)
	if err != nil {
		return "", fmt.Errorf("%w: node %s: %v", ErrNotFound, id, err)
	}
	return n.Addr, nil
}
