package sheets_test

import (
	"errors"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A sheet's digest depends on its content and kind only: not on the combatant's other
// fields, not on the order a map was filled in.
func TestSheetDigest(t *testing.T) {
	sheet := func(keys ...string) *encounterv1.Combatant {
		s := &lossv1.Sheet{Traits: map[string]int32{}, Initiative: 7}
		for i, k := range keys {
			s.Traits[k] = int32(i % 2)
		}
		return &encounterv1.Combatant{Id: "diego", Name: "Diego", Sheet: &encounterv1.Combatant_Loss{Loss: s}}
	}
	a := sheets.Digest(sheet("Puissance", "Agilité", "Esprit", "Présence"))
	require.Len(t, a, 32)
	other := sheet("Esprit", "Présence", "Puissance", "Agilité") // the same map, filled otherwise
	other.GetLoss().Traits = map[string]int32{"Esprit": 0, "Présence": 1, "Puissance": 0, "Agilité": 1}
	require.Equal(t, a, sheets.Digest(other))
	renamed := sheet("Puissance", "Agilité", "Esprit", "Présence")
	renamed.Id, renamed.Name, renamed.Controller, renamed.Hidden = "zorro", "Zorro", "dev/alice", true
	require.Equal(t, a, sheets.Digest(renamed), "only the sheet counts")
	changed := sheet("Puissance", "Agilité", "Esprit", "Présence")
	changed.GetLoss().Initiative = 8
	require.NotEqual(t, a, sheets.Digest(changed))

	require.Nil(t, sheets.Digest(&encounterv1.Combatant{Id: "x"}))
	require.Nil(t, sheets.Digest(nil))
	emptyLoss := sheets.Digest(&encounterv1.Combatant{Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{}}})
	emptyFeerie := sheets.Digest(&encounterv1.Combatant{Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{}}})
	require.NotEqual(t, emptyLoss, emptyFeerie, "the kind of sheet counts")
}

func TestReason(t *testing.T) {
	err := sheets.WithReason(codes.FailedPrecondition, "no sheet", sheets.ReasonNotCached, map[string]string{"combatants": "a,b"})
	require.Equal(t, codes.FailedPrecondition, status.Code(err))
	require.Equal(t, "no sheet", status.Convert(err).Message())
	require.Equal(t, sheets.ReasonNotCached, sheets.Reason(err))
	require.Equal(t, sheets.ReasonNotCached, sheets.Reason(errors.Join(errors.New("wrapped"), err)))
	require.Empty(t, sheets.Reason(status.Error(codes.FailedPrecondition, "no details")))
	require.Empty(t, sheets.Reason(errors.New("not a status")))
	require.Empty(t, sheets.Reason(nil))
}
