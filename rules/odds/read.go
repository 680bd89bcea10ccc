package odds

import oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"

// Read is a system's Odds from the numbers its reading of a command gave (ReadAttackOdds), or
// the reading's error: what each system's Odds would otherwise write again.
func Read[N interface{ Odds() *oddsv1.Odds }](numbers N, err error) (*oddsv1.Odds, error) {
	if err != nil {
		return nil, err
	}
	return numbers.Odds(), nil
}
