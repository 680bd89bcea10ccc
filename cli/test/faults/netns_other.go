//go:build unix && !linux

package faults

import (
	"context"
	"errors"
)

// Network is Linux's network namespaces; elsewhere there is none, and the partitions are
// skipped.
type Network struct{}

func networkUnavailable() string { return "network namespaces are Linux's" }

func NewNetwork(context.Context, int) (*Network, error) {
	return nil, errors.New(networkUnavailable())
}

func (n *Network) Addr(int) string                               { return "" }
func (n *Network) Wrap(int, string, []string) (string, []string) { return "", nil }
func (n *Network) Describe() string                              { return "" }
func (n *Network) CutRoutes(context.Context, int) error          { return errors.ErrUnsupported }
func (n *Network) CutAll(context.Context, int) error             { return errors.ErrUnsupported }
func (n *Network) Heal(context.Context, int) error               { return nil }
func (n *Network) Close()                                        {}
func connectedTo(int, []string) (int, error)                     { return -1, errors.ErrUnsupported }
