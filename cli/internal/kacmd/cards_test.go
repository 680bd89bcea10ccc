package kacmd_test

import (
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/stretchr/testify/require"
)

var (
	epee6, epee10           = kaCard(kav1.Suit_SUIT_EPEE, 6), kaCard(kav1.Suit_SUIT_EPEE, 10)
	valetBaton              = kaCard(kav1.Suit_SUIT_BATON, 11)
	asEpee, roiCoupe, dameD = kaCard(kav1.Suit_SUIT_EPEE, 1), kaCard(kav1.Suit_SUIT_COUPE, 14), kaCard(kav1.Suit_SUIT_DENIER, 13)
	cavalierBaton           = kaCard(kav1.Suit_SUIT_BATON, 12)
)

// The Ka state table names the cards as the game does (KA-001).
func TestKaCardText(t *testing.T) {
	for want, c := range map[string]*kav1.Card{
		"6 d'épée": epee6, "as d'épée": asEpee, "valet de bâton": valetBaton, "cavalier de bâton": cavalierBaton,
		"dame de denier": dameD, "roi de coupe": roiCoupe, "10 d'épée": epee10, "rank 15 de suit unknown": {Rank: 15},
	} {
		require.Equal(t, want, client.CardText(c))
	}
}
