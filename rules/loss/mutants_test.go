package loss_test

import (
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// Tests at the bounds the rules draw, each written against a mutant that lived in a real
// mutation run of rules/loss (a `>` made `>=` or the like that no test told apart).

func grant(id string, n int32) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: n}}})
}

// LOS-004, LOS-005: the GM grants free raises up to 20 held and takes them back down to 0;
// a Test may spend every free raise held (+5 each), and an Inspiration entry of 0 spends
// nothing and adds nothing.
func TestLOS004SpendEverythingHeld(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	f.do(gm, grant("diego", 20))
	require.Equal(t, int32(20), f.cs("diego").GetFreeRaises())
	f.refuse(gm, grant("diego", 1), engine.CodeInvalid, "LOS-004", "Diego", "20")
	f.do(gm, grant("diego", -20))
	require.Equal(t, int32(0), f.cs("diego").GetFreeRaises())
	f.refuse(gm, grant("diego", -1), engine.CodeInvalid, "LOS-004", "Diego")
	f.do(gm, grant("diego", 2))

	sp := &lossv1.Spend{FreeRaises: 2, Inspiration: map[string]int32{"Courage": 0}}
	evs := f.do("david", attack("diego", "malfrat", 0, sp), 3)
	tr := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest()
	require.Equal(t, int32(10), tr.GetBonus(), "two free raises, +5 each; no Inspiration")
	require.Len(t, tr.GetTestModifiers(), 1)
	require.Equal(t, int32(12+3+10), tr.GetTotal())
	require.Equal(t, int32(0), f.cs("diego").GetFreeRaises())
	f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-009", "Malfrat") // the blow awaits its answer
}

// LOS-067: Take the advantage may be declared five times on one Test (5 Exploits, +5 PA at
// most); Hercule (35) rolls 5: 40 against 15 + 25.
func TestLOS067FiveTimesTakeTheAdvantage(t *testing.T) {
	f := newFight(t, nil, exHero(), ruffian())
	f.start(5, 1) // Hercule 15, the ruffian 6
	adv := lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE
	evs := f.do("david", exStrike("hercule", exAt("malfrat", "épée", adv, adv, adv, adv, adv)), 5)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(40), ar.GetTest().GetDifficulty())
	require.True(t, ar.GetTest().GetSuccess())
	res := find(t, f.do(gm, takeBlow("malfrat"), 1), (*lossv1.Event).GetAttackResolved)
	require.Len(t, res.GetEffects(), 5)
	require.Equal(t, int32(5), f.cs("hercule").GetAdvantage())
}

// LOS-012: a defender may declare up to 5 Exploits: the ruffian dodges Diego's plain attack
// with 5, at 15 + 25 = 40, and misses it with 12 + 9 = 21 (no attacker Exploit to cancel).
func TestLOS012FiveDefenceExploits(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 0, nil), 5) // 17 ≥ 15
	evs := f.do(gm, dodge("malfrat", 5, nil), 9, 4)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(5), dr.GetExploits())
	require.Equal(t, int32(40), dr.GetTest().GetDifficulty())
	require.Equal(t, int32(21), dr.GetTest().GetTotal())
	require.Equal(t, int32(0), dr.GetExploitsCancelled())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(4+3), res.GetDamage().GetTotal())
	require.Equal(t, []int32{15 - 4, 10 - 1}, f.ap("diego", "malfrat"))
}

// A description of a simple action or of a Disaster holds up to engine.MaxNameLength (200)
// characters (LOS-035, LOS-006).
func TestDescriptionsUpToTheLongestName(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	long := strings.Repeat("a", engine.MaxNameLength)
	social := func(d string) *encounterv1.Command {
		return action(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{
			Kind: lossv1.SimpleKind_SIMPLE_KIND_SOCIAL, Description: d,
		}}})
	}
	f.refuse("david", social(long+"a"), engine.CodeInvalid, "")
	evs := f.do("david", social(long))
	require.Equal(t, long, find(t, evs, (*lossv1.Event).GetSimpleActed).GetDescription())
	require.Equal(t, int32(14), f.cs("diego").GetActionPoints(), "a social Talent costs 1 PA")

	f.do("david", attack("diego", "malfrat", 1, nil), 1) // 13 < 20: a failed Exploit
	f.refuse(gm, exDisaster("diego", long+"a"), engine.CodeInvalid, "LOS-006")
	evs = f.do(gm, exDisaster("diego", long))
	require.Equal(t, long, find(t, evs, (*lossv1.Event).GetDisasterDeclared).GetDescription())
}
