package loss

import (
	"regexp"

	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"golang.org/x/text/language"
)

// LegalWords words a legal action of Les Chants de Loss in lang (engine.LegalWords): French
// for fr, in the rules' own terms (« parer », « esquiver », « encaisser le coup », the Exploits
// as the book names them: Contre-attaque, Esquive totale…); English otherwise, as legal.go
// writes it. A name a target or a weapon gives (Le malfrat, épée) is kept as it is.
func (System) LegalWords(a *rulesetv1.LegalAction, lang language.Tag) {
	if base, _ := lang.Base(); base.String() != "fr" {
		return
	}
	a.Name = legalFrench(a.GetName())
	a.Description = legalFrench(a.GetDescription())
	for _, c := range a.GetChoices() {
		c.Description = legalFrench(c.GetDescription())
		for _, o := range c.GetOptions() {
			if o.GetValue() != o.GetLabel() { // a combatant's name is its own
				o.Label = legalFrench(o.GetLabel())
			}
		}
	}
}

// legalWordsFr are the French of legal.go's words, whole.
var legalWordsFr = map[string]string{
	// actions
	"attack": "attaquer", "assaut": "assaut", "aim": "viser", "aim a whole Tour": "viser tout le Tour",
	"declare": "déclarer", "grab or trip": "saisir ou faire trébucher", "parry": "parer", "dodge": "esquiver",
	"take the blow": "encaisser le coup", "wait": "attendre", "pass": "passer", "speak": "parler",
	"moving": "se déplacer", "picking up an object": "ramasser un objet", "a social Talent": "un Talent social",
	"stand up": "se relever", "recover weapon": "ramasser son arme", "speaking": "parler", "standing up": "se relever",
	"change distance (pursuit)": "changer de distance (poursuite)", "charge (pursuit)": "charge (poursuite)",
	"zigzags (pursuit)": "zigzags (poursuite)", "shoot the legs (pursuit)": "tirer dans les jambes (poursuite)",
	"clothesline (pursuit)": "corde à linge (poursuite)", "tackle (pursuit)": "placage (poursuite)",
	"charge": "charge", "zigzags": "zigzags", "clothesline": "corde à linge", "tackle": "placage",
	"your first action this Tour": "votre première action du Tour", "pick up one's weapon": "ramasser son arme",
	"regain one's balance": "retrouver son équilibre",
	// choices
	"the target": "la cible", "the phase to act at": "la phase où agir", "+1 per PA": "+1 par PA",
	"the intention, in words": "l'intention, en mots",
	"Exploits declared: each effect costs its Exploits, at most 5 in all (LOS-010)": "Exploits déclarés : chaque effet coûte ses Exploits, 5 au plus en tout (LOS-010)",
	"Exploits declared on the defence (LOS-012)":                                    "Exploits déclarés sur la défense (LOS-012)",
	"Exploits declared (LOS-010)":                                                   "Exploits déclarés (LOS-010)",
	"Fursa spent, +5 each (LOS-004)":                                                "Fursa dépensées, +5 chacune (LOS-004)",
	"Augmentations Gratuites spent, +5 each (LOS-004)":                              "Augmentations Gratuites dépensées, +5 chacune (LOS-004)",
	"Inspiration spent by Vertu, +5 each (LOS-004): one entry per Vertu":            "Inspiration dépensée par Vertu, +5 chacune (LOS-004) : une entrée par Vertu",
	"close in (true) or pull away (false)":                                          "se rapprocher (true) ou s'éloigner (false)",
	"the distance to the target in metres (LOS-080; none given: close)":             "la distance de la cible en mètres (LOS-080 ; sans : au contact)",
	"grab": "saisir", "trip": "faire trébucher", "close in": "se rapprocher", "pull away": "s'éloigner",
	// the Exploits, as the book names them
	"extra damage": "dégâts supplémentaires", "Assaut": "Assaut", "Counter-attack": "Contre-attaque",
	"Total dodge": "Esquive totale", "Feint": "Feinte", "Defensive wall": "Mur défensif",
	"Take the advantage": "Prendre l'avantage", "Protect": "Protéger", "Aim at a limb": "Viser un membre",
	"Two weapons": "Deux armes", "Moulinet": "Moulinet", "Overthrow": "Renverser",
	"Aim at a precise zone": "Viser une zone précise", "Disarm": "Désarmer", "Aim at a precise point": "Viser un point précis",
	"Neutralise": "Neutraliser", "Storm of blades": "Tempête de lames", "Kill outright": "Tuer net",
	"Ricochet": "Ricochet", "Shoot through": "Transpercer", "Rain of projectiles": "Pluie de projectiles",
}

// legalPatternsFr are the French of legal.go's words that carry a number or a name.
var legalPatternsFr = []struct {
	en *regexp.Regexp
	fr string
}{
	{regexp.MustCompile(`^attack with (.+)$`), "attaquer avec $1"},
	{regexp.MustCompile(`^charge with (.+) \(1 Exploit\)$`), "charger avec $1 (1 Exploit)"},
	{regexp.MustCompile(`^act later, at a phase from 1 to (\d+)$`), "agir plus tard, à une phase de 1 à $1"},
	{regexp.MustCompile(`^aim with (.+): \+1 per PA, up to \+(\d+) more$`), "viser avec $1 : +1 par PA, jusqu'à +$2 de plus"},
	{regexp.MustCompile(`^the whole Tour, all PA: ([+-]\d+) on the next shot with (.+)$`), "tout le Tour, tous les PA : $1 au prochain tir avec $2"},
	{regexp.MustCompile(`^change distance \(Difficulty (\d+)\)$`), "changer de distance (Difficulté $1)"},
	{regexp.MustCompile(`^shoot the legs with (.+)$`), "tirer dans les jambes avec $1"},
	{regexp.MustCompile(`^(\d+) Inspiration of (.+)$`), "$1 Inspiration de $2"},
}

// legalFrench is s in French when legal.go wrote it, else s.
func legalFrench(s string) string {
	if s == "" {
		return s
	}
	if fr, ok := legalWordsFr[s]; ok {
		return fr
	}
	for _, p := range legalPatternsFr {
		if p.en.MatchString(s) {
			return p.en.ReplaceAllString(s, p.fr)
		}
	}
	return s
}
