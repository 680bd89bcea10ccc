// The odds an action button shows: the chance of success and the expected effect of the
// command its form would give, as EncounterService.GetOdds answers them for the reader (a
// player gets no odds from a hidden combatant's numbers: the server leaves them out, and so
// does the page). Requests are debounced and a stale one is cancelled; a refusal shows nothing.
import { toJson } from "@bufbuild/protobuf";
import { CommandSchema, type Command } from "./gen/fray/encounter/v1/encounter_pb";
import type { Odds, OddsSection } from "./gen/fray/odds/v1/odds_pb";

// Headline is what a button shows of the odds.
export interface Headline {
  section?: string;  // the key of the section it comes from
  chance?: number;   // the chance of success
  effect?: { label: string; mean: number }; // the expected effect
  unavailable?: string; // why there is no chance to show
  detail: string;    // every section in words, for the title and the form
}

// sectionChance is a section's chance of success: for a defender's answer its "miss" chance
// (the attack misses), else its "hit" chance (Les Chants de Loss, Contes de Fées, d20
// segments), or for Ka one less the chance of a failure (level 0).
export function sectionChance(s: OddsSection): number | undefined {
  const miss = s.chances.find((c) => c.key === "miss");
  if (miss) return miss.probability;
  const hit = s.chances.find((c) => c.key === "hit");
  if (hit) return hit.probability;
  const fail = s.chances.find((c) => c.key === "level.0");
  return fail ? 1 - fail.probability : undefined;
}

// headline: the first section with a chance of success (an attack not defended against, the
// tactic in force), its chance and the mean of its first distribution (NS lost, Essence lost,
// Ka dice lost, damage); when no section has a chance, why not.
export function headline(o: Odds): Headline {
  const detail = [o.summary, ...o.sections.map((s) => {
    const c = sectionChance(s);
    const parts = [c === undefined ? "" : percent(c), ...s.distributions.map((d) => `${d.label} ≈ ${d.mean.toFixed(2)}`), s.unavailable].filter((x) => x);
    return `${s.title}: ${parts.join(" · ") || "—"}`;
  })].join("\n");
  for (const s of o.sections) {
    const chance = sectionChance(s);
    if (chance === undefined) continue;
    const d = s.distributions[0];
    return { section: s.key, chance, effect: d && { label: d.label.replace(/\s*\(.*\)$/, ""), mean: d.mean }, detail };
  }
  return { unavailable: o.sections.find((s) => s.unavailable)?.unavailable ?? "", detail };
}

// percent renders a chance in whole percents ("62 %"), never 0 or 100 for what may or may not happen.
export function percent(p: number): string {
  if (p > 0 && p < 0.005) return "<1\u00a0%";
  if (p < 1 && p >= 0.995) return ">99\u00a0%";
  return `${Math.round(p * 100)}\u00a0%`;
}

type Result = { head?: Headline };

// Words are the page's words for the odds.
export interface Words { noOdds: string; allOdds: string }

interface Pending { key: string; ctl: AbortController; timer?: ReturnType<typeof setTimeout> }

// OddsBoard asks and caches the odds of the commands the page's buttons would give, one
// request at a time per button (its slot), and paints every element of a slot.
export class OddsBoard {
  private cache = new Map<string, Result>();
  private pending = new Map<string, Pending>();
  private last = new Map<string, { kind: string; r: Result }>();
  private sequence = "";

  constructor(
    private ask: (cmd: Command, signal: AbortSignal) => Promise<Odds>,
    private words: () => Words,
    private delay = 120,
  ) {}

  // at forgets the odds of another state of the encounter.
  at(sequence: string) {
    if (sequence === this.sequence) return;
    this.sequence = sequence;
    this.cache.clear();
  }

  // stop cancels every request (the page leaves the encounter).
  stop() {
    for (const p of this.pending.values()) { clearTimeout(p.timer); p.ctl.abort(); }
    this.pending.clear();
    this.cache.clear();
    this.last.clear();
  }

  // show makes the elements of slot show the odds of cmd (none when cmd is undefined). kind
  // names the action the slot holds: while the odds of cmd are asked, those the slot last
  // showed for the same kind stay, dimmed (the buttons are redrawn at each event).
  show(slot: string, kind: string, cmd: Command | undefined) {
    const key = cmd ? `${this.sequence}|${JSON.stringify(toJson(CommandSchema, cmd))}` : "";
    const p = this.pending.get(slot);
    if (p && p.key !== key) { clearTimeout(p.timer); p.ctl.abort(); this.pending.delete(slot); }
    const done = cmd ? this.cache.get(key) : {};
    if (done) { this.paint(slot, kind, done); return; }
    const last = this.last.get(slot);
    for (const el of this.elements(slot)) {
      if (last?.kind === kind && el.dataset.oddsKind !== kind) paintOne(el, last.r, this.words());
      el.dataset.oddsKind = kind;
      el.classList.add("pending");
    }
    if (this.pending.get(slot)?.key === key) return;
    const ctl = new AbortController();
    const next: Pending = { key, ctl };
    next.timer = setTimeout(async () => {
      let r: Result;
      try {
        r = { head: headline(await this.ask(cmd!, ctl.signal)) };
      } catch {
        if (ctl.signal.aborted) return;
        r = {}; // refused (an incomplete choice, a command the rules refuse): nothing to show
      }
      if (this.pending.get(slot) !== next) return;
      this.pending.delete(slot);
      if (key.startsWith(this.sequence + "|")) this.cache.set(key, r);
      this.paint(slot, kind, r);
    }, this.delay);
    this.pending.set(slot, next);
  }

  private elements(slot: string): HTMLElement[] {
    return Array.from(document.querySelectorAll<HTMLElement>(`[data-odds-slot="${CSS.escape(slot)}"]`));
  }

  // paint shows r on the elements of slot.
  private paint(slot: string, kind: string, r: Result) {
    this.last.set(slot, { kind, r });
    for (const el of this.elements(slot)) {
      el.dataset.oddsKind = kind;
      paintOne(el, r.head ? r : {}, this.words());
    }
  }
}

// paintOne shows r on el: the chance and the expected effect, "odds unavailable" when the
// odds hold no chance of success, nothing when there are no odds.
function paintOne(el: HTMLElement, r: Result, words: Words) {
  const h = r.head;
  if (el instanceof HTMLDetailsElement) { // every section, in words
    el.classList.remove("pending");
    el.hidden = !h;
    if (!h) return;
    const [summary, ...lines] = h.detail.split("\n");
    const list = document.createElement("ul");
    for (const l of lines) list.append(Object.assign(document.createElement("li"), { textContent: l }));
    const head = Object.assign(document.createElement("summary"), { textContent: words.allOdds });
    el.replaceChildren(head, Object.assign(document.createElement("p"), { textContent: summary }), list);
    return;
  }
  delete el.dataset.chance; delete el.dataset.mean; delete el.dataset.effect; delete el.dataset.section;
  el.classList.remove("none", "pending");
  el.removeAttribute("title");
  if (!h) { el.textContent = ""; el.hidden = true; return; }
  el.hidden = false;
  el.title = h.detail;
  if (h.chance === undefined) {
    el.classList.add("none");
    el.textContent = words.noOdds;
    return;
  }
  el.dataset.section = h.section ?? "";
  el.dataset.chance = String(h.chance);
  let text = percent(h.chance);
  if (h.effect) {
    el.dataset.mean = String(h.effect.mean);
    el.dataset.effect = h.effect.label;
    text += ` · ${h.effect.label} ≈\u00a0${h.effect.mean.toFixed(1)}`;
  }
  el.textContent = text;
}
