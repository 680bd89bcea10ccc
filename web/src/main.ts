// fray's encounter page: the tracker, the narrated log live, a player's legal actions and the
// GM's controls, over fray's own API (Connect, from the stubs protoc-gen-es generates).
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { parse as parseYAML } from "yaml";
import {
  Appearance, CombatantSchema, EncounterStatus, Role,
  type Combatant, type Command, type EncounterState,
} from "./gen/fray/encounter/v1/encounter_pb";
import {
  EncounterService, type GetEncounterResponse, type LegalCommand, type Ruleset,
} from "./gen/fray/encounter/v1/encounter_service_pb";
import { InviteService } from "./gen/fray/invite/v1/invite_service_pb";
import type { Choice } from "./gen/fray/ruleset/v1/ruleset_pb";
import { buildCommand, defaultCommand, isSelect } from "./command";
import { OddsBoard } from "./odds";

// ---- The token and the route: #/encounter/ID?token=… (the token never goes to a server in the URL).

const TOKEN_KEY = "fray.token";

interface Route { encounter: string }

function readRoute(): Route {
  const hash = location.hash.replace(/^#/, "");
  const [path, query = ""] = hash.split("?", 2);
  const params = new URLSearchParams(query);
  const token = params.get("token");
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    // The token leaves the address bar (and the history) once kept.
    history.replaceState(null, "", "#" + path);
  }
  const m = /^\/encounter\/([^/?]+)/.exec(path ?? "");
  return { encounter: m ? decodeURIComponent(m[1]) : "" };
}

function token(): string { return sessionStorage.getItem(TOKEN_KEY) ?? ""; }

// The principal the token names, tenant/subject (read, not verified: the server verifies).
function principal(): { principal: string; subject: string } {
  try {
    const part = token().split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(decodeURIComponent(escape(atob(part))));
    const subject = String(claims.sub ?? "");
    return { principal: claims.tenant ? `${claims.tenant}/${subject}` : subject, subject };
  } catch {
    return { principal: "", subject: "" };
  }
}

const auth: Interceptor = (next) => async (req) => {
  const t = token();
  if (t) req.header.set("Authorization", "Bearer " + t);
  return next(req);
};
const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [auth] });
const encounters = createClient(EncounterService, transport);
const invites = createClient(InviteService, transport);

function commandId(): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return "web-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// ---- Small DOM helpers.

type Child = Node | string | null | undefined | false;
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
const $ = (id: string) => document.getElementById(id)!;

function say(msg: string) { $("status").textContent = msg; }
function sayError(err: unknown) {
  const e = ConnectError.from(err);
  say(e.rawMessage || e.message);
}

// ---- The words of the page, in English and French.

const words = {
  en: {
    language: "Language", tracker: "Tracker", log: "Log", actions: "Your actions", gm: "Game master",
    start: "Start", end: "End the encounter", add: "Add combatants from sheet files (YAML or JSON)",
    invite: "Invite", invitePlayer: "as the player of", inviteObserver: "as an observer", link: "Invite link",
    rewind: "rewind here", mustAnswer: "must answer an attack", acting: "may act", noAction: "Nothing to do now.",
    create: "Create an encounter", name: "Name", system: "Rule system", version: "Version", latest: "the latest", hidden: "hidden", out: "out of the fight",
    cost: "cost", choose: "Take it", cancel: "Cancel", you: "you", role: "role", noOdds: "odds unavailable", allOdds: "All the odds",
    appearance: { [Appearance.UNSPECIFIED]: "", [Appearance.FIGHTING]: "fighting", [Appearance.WOUNDED]: "wounded", [Appearance.BADLY_WOUNDED]: "badly wounded", [Appearance.OUT_OF_THE_FIGHT]: "out of the fight" } as Record<number, string>,
    status: { [EncounterStatus.UNSPECIFIED]: "", [EncounterStatus.SETUP]: "setting up", [EncounterStatus.ACTIVE]: "in play", [EncounterStatus.ENDED]: "ended" } as Record<number, string>,
  },
  fr: {
    language: "Langue", tracker: "Suivi", log: "Journal", actions: "Vos actions", gm: "Meneur de jeu",
    start: "Commencer", end: "Terminer la rencontre", add: "Ajouter des combattants depuis des fiches (YAML ou JSON)",
    invite: "Inviter", invitePlayer: "comme joueur de", inviteObserver: "comme spectateur", link: "Lien d'invitation",
    rewind: "revenir ici", mustAnswer: "doit répondre à une attaque", acting: "peut agir", noAction: "Rien à faire pour l'instant.",
    create: "Créer une rencontre", name: "Nom", system: "Système", version: "Version", latest: "la plus récente", hidden: "caché", out: "hors de combat",
    cost: "coût", choose: "Valider", cancel: "Annuler", you: "vous", role: "rôle", noOdds: "chances indisponibles", allOdds: "Toutes les chances",
    appearance: { [Appearance.UNSPECIFIED]: "", [Appearance.FIGHTING]: "combat", [Appearance.WOUNDED]: "blessé", [Appearance.BADLY_WOUNDED]: "gravement blessé", [Appearance.OUT_OF_THE_FIGHT]: "hors de combat" } as Record<number, string>,
    status: { [EncounterStatus.UNSPECIFIED]: "", [EncounterStatus.SETUP]: "en préparation", [EncounterStatus.ACTIVE]: "en jeu", [EncounterStatus.ENDED]: "terminée" } as Record<number, string>,
  },
};
type Lang = keyof typeof words;
let lang: Lang = (localStorage.getItem("fray.language") as Lang) in words ? (localStorage.getItem("fray.language") as Lang) : "en";
const w = () => words[lang];

// ---- The encounter view.

interface View {
  id: string;
  resp?: GetEncounterResponse;
  watch?: AbortController;
  refreshing?: Promise<void>;
  again?: boolean;
  open?: string; // the key of the action whose form is open: combatant/index
}
let view: View | undefined;

function myRole(st: EncounterState): Role {
  const me = principal();
  if (st.gameMaster === me.principal || st.gameMaster === me.subject) return Role.GM;
  const grant = st.roles.find((r) => r.principal === me.principal || r.principal === me.subject);
  if (grant) return grant.role;
  if (st.combatants.some((c) => c.controller === me.principal || c.controller === me.subject)) return Role.PLAYER;
  return Role.UNSPECIFIED;
}
const isGM = (r: Role) => r === Role.GM || r === Role.CO_GM;

// The odds on the action buttons, as GetOdds answers them to the reader.
const board = new OddsBoard(async (command, signal) => {
  const res = await encounters.getOdds({ encounterId: view?.id ?? "", command }, { signal });
  if (!res.odds) throw new Error("no odds");
  return res.odds;
}, () => w());

// ---- The rule systems as the server describes them (ListRulesets): what the create form
// offers, with no copy of them here.

let rulesets: Promise<Ruleset[]> | undefined;

function loadRulesets(): Promise<Ruleset[]> {
  rulesets ??= encounters.listRulesets({}).then((r) => r.rulesets, (err) => { rulesets = undefined; throw err; });
  return rulesets;
}

// units are the unit of each rule system's costs (RulesetDescriptor.cost_unit), by its id, once
// the rule systems are known: a cost reads "4 PA", "1 action", as the system's players say it.
const units = new Map<string, { one: string; many: string }>();

function costText(system: string, cost: number): string {
  const u = units.get(system);
  return u ? `${cost} ${Math.abs(cost) === 1 ? u.one : u.many}` : String(cost);
}

// loadUnits fills units from ListRulesets (once: the list is kept); without it costs read as
// bare numbers.
async function loadUnits() {
  if (units.size) return;
  try {
    for (const rs of await loadRulesets()) if (rs.latest?.costUnit) units.set(rs.latest.id, rs.latest.costUnit);
  } catch {
    // The costs stay bare numbers; the next refresh asks again.
  }
}

// hasOdds: GetOdds computes the odds of the action's command (the server says which).
const hasOdds = (lc: LegalCommand) => lc.odds && !!lc.command;

async function showEncounter(id: string) {
  view?.watch?.abort();
  board.stop();
  view = { id };
  $("main").className = "encounter";
  $("main").replaceChildren(
    h("section", { id: "tracker-section", "aria-labelledby": "tracker-h" }, h("h2", { id: "tracker-h" }, w().tracker), h("div", { id: "tracker" })),
    h("section", { id: "log-section", "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, w().log), h("ol", { id: "log", "aria-live": "polite" })),
    h("section", { id: "actions-section", "aria-labelledby": "actions-h" }, h("h2", { id: "actions-h" }, w().actions), h("div", { id: "actions" })),
    h("section", { id: "gm-section", hidden: true, "aria-labelledby": "gm-h" }, h("h2", { id: "gm-h" }, w().gm), h("div", { id: "gm" })),
  );
  await refresh();
  watch();
}

// watch follows the encounter's events from the start, narrated in the chosen language; each
// event appends its line and refreshes the state and the legal actions.
function watch() {
  if (!view) return;
  const v = view;
  v.watch?.abort();
  const ctl = new AbortController();
  v.watch = ctl;
  $("log").replaceChildren();
  (async () => {
    let from = 1n;
    for (let attempt = 0; !ctl.signal.aborted; attempt++) {
      try {
        for await (const res of encounters.watchEncounter({ encounterId: v.id, fromSequence: from, language: lang }, { signal: ctl.signal })) {
          const ev = res.event!;
          from = ev.sequence + 1n;
          appendLine(ev.sequence, res.narration, ev.payload.case === "encounterRewound" ? ev.payload.value.toSequence : undefined);
          scheduleRefresh();
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        sayError(err);
      }
      // The stream ended or broke: resume where it was, after a pause that grows.
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
    }
  })();
}

function appendLine(seq: bigint, text: string, rewoundTo?: bigint) {
  const log = $("log");
  if (rewoundTo !== undefined) {
    for (const li of Array.from(log.children) as HTMLElement[]) {
      if (BigInt(li.dataset.sequence ?? "0") > rewoundTo) li.classList.add("undone");
    }
  }
  const li = h("li", { "data-sequence": seq.toString() }, h("span", { class: "text" }, text || `#${seq}`));
  log.append(li);
  rewindButtons();
  li.scrollIntoView?.({ block: "nearest" });
}

// rewindButtons gives the GM a "rewind here" button on each line of the log while the
// encounter is in play, and takes them away otherwise.
function rewindButtons() {
  const st = view?.resp?.state;
  const on = !!st && isGM(myRole(st)) && st.status === EncounterStatus.ACTIVE;
  for (const li of Array.from($("log").children) as HTMLElement[]) {
    const b = li.querySelector("button.rewind");
    if (on && !b) {
      const seq = BigInt(li.dataset.sequence ?? "0");
      li.append(h("button", { class: "small rewind", type: "button", "aria-label": `${w().rewind} #${seq}`, onclick: () => rewind(seq) }, w().rewind));
    } else if (!on && b) {
      b.remove();
    }
  }
}

function scheduleRefresh() {
  if (!view) return;
  if (view.refreshing) { view.again = true; return; }
  view.refreshing = (async () => {
    try {
      do {
        view!.again = false;
        await refresh();
      } while (view?.again);
    } finally {
      if (view) view.refreshing = undefined;
    }
  })();
}

async function refresh() {
  if (!view) return;
  const v = view;
  try {
    const [resp] = await Promise.all([encounters.getEncounter({ encounterId: v.id, legalForAll: true, language: lang }), loadUnits()]);
    if (view !== v) return;
    v.resp = resp;
    render();
  } catch (err) {
    sayError(err);
  }
}

function render() {
  const resp = view?.resp;
  const st = resp?.state;
  if (!resp || !st) return;
  const role = myRole(st);
  $("title").textContent = `— ${st.name} (${st.ruleSystem}, ${w().status[st.status]})`;
  const me = principal();
  $("who").textContent = `${me.principal} · ${w().role}: ${Role[role]?.toLowerCase().replace("_", "-") ?? ""}`;
  renderTracker(st, resp);
  renderActions(st, resp);
  // The sequence the page shows, for tests and for anyone comparing two screens.
  document.body.dataset.sequence = st.sequence.toString();
  rewindButtons();
  const gm = $("gm-section");
  gm.hidden = !isGM(role);
  if (isGM(role)) renderGM(st);
}

// ---- The tracker, as the rules draw it (GetEncounterResponse.tracker): where the fight is, and
// each combatant's numbers and conditions in its system's own terms.

function renderTracker(st: EncounterState, resp: GetEncounterResponse) {
  const tr = resp.tracker;
  const acting = new Set(resp.mayAct);
  const answering = new Set(resp.awaitingReaction);
  const out: Node[] = [h("p", { class: "turn", id: "turn" }, tr?.turn ?? "")];
  if (acting.size) out.push(h("p", { id: "now" }, `${names(st, [...acting]).join(", ")} — ${w().acting}`));
  const list = h("ul", { class: "combatants" });
  for (const c of st.combatants) {
    // A combatant whose numbers are withheld from the reader (hidden by the GM) has a row of
    // empty cells: what is shown of it is its appearance.
    const row = tr?.rows.find((r) => r.combatantId === c.id);
    const tracks = h("dl", { class: "tracks" });
    row?.cells.forEach((v, i) => { if (v !== "") tracks.append(h("div", {}, h("dt", {}, tr!.header[i] ?? ""), h("dd", {}, v))); });
    const flags = [...(row?.conditions ?? [])];
    if (c.hidden) flags.push(w().hidden);
    const look = w().appearance[c.appearance];
    if (look && !tracks.childElementCount) flags.push(look);
    const li = h("li", { class: "combatant", id: "c-" + c.id, "data-combatant": c.id },
      h("h3", {}, c.name, " ", h("span", { class: "side" }, c.side)),
      tracks,
      flags.length ? h("p", { class: "conditions" }, flags.join(" · ")) : null);
    if (acting.has(c.id)) li.classList.add("acting");
    if (answering.has(c.id)) li.classList.add("answering");
    if (c.appearance === Appearance.OUT_OF_THE_FIGHT) li.classList.add("out");
    list.append(li);
  }
  out.push(list);
  $("tracker").replaceChildren(...out);
}

function names(st: EncounterState, ids: string[]): string[] {
  return ids.map((id) => st.combatants.find((c) => c.id === id)?.name ?? id);
}

// ---- Legal actions: buttons, the forms of their choices, the prompt to answer an attack.

function renderActions(st: EncounterState, resp: GetEncounterResponse) {
  const box = $("actions");
  const out: Node[] = [];
  const answering = new Set(resp.awaitingReaction);
  board.at(st.sequence.toString());
  const odds: { slot: string; lc: LegalCommand }[] = [];
  let form: { slot: string; command: () => Command | undefined } | undefined;
  for (const ca of resp.actions) {
    const who = st.combatants.find((c) => c.id === ca.combatantId);
    const prompt = answering.has(ca.combatantId);
    const group = h("div", { class: "actor" + (prompt ? " prompt" : ""), "data-combatant": ca.combatantId, role: "group", "aria-label": who?.name ?? ca.combatantId });
    group.append(h("h3", {}, who?.name ?? ca.combatantId, prompt ? ` — ${w().mustAnswer}` : ""));
    const buttons = h("div", { class: "actions" });
    ca.actions.forEach((lc, i) => {
      const a = lc.action!;
      const key = `${ca.combatantId}/${i}`;
      const b = h("button", {
        type: "button", class: "action", "data-key": a.key, "data-combatant": ca.combatantId,
        "data-reaction": a.reaction ? "true" : "false", "aria-expanded": view?.open === key ? "true" : "false",
        "data-label": `${a.name}|${a.cost}|${a.rule}|${a.description}`,
        onclick: () => choose(key, lc),
      }, a.name,
      a.cost ? h("span", { class: "cost" }, `${w().cost} ${costText(st.ruleSystem, a.cost)}`) : null,
      a.rule ? h("span", { class: "rule" }, a.rule) : null);
      if (a.description) b.title = a.description;
      if (hasOdds(lc)) {
        b.append(h("span", { class: "odds", "data-odds-slot": key, hidden: true }));
        odds.push({ slot: key, lc });
      }
      buttons.append(b);
    });
    group.append(buttons);
    const open = ca.actions.findIndex((_, i) => view?.open === `${ca.combatantId}/${i}`);
    if (open >= 0) {
      const f = choiceForm(st, ca.actions[open], `${ca.combatantId}/${open}`);
      group.append(f.form);
      form = { slot: `${ca.combatantId}/${open}`, command: f.command };
    }
    out.push(group);
  }
  if (!out.length) out.push(h("p", { class: "muted" }, w().noAction));
  // Keep the focus on a button that is redrawn (keyboard play).
  const focused = document.activeElement as HTMLElement | null;
  const focusKey = focused?.dataset?.key ? `${focused.dataset.combatant}|${focused.dataset.key}|${focused.dataset.label}` : "";
  box.replaceChildren(...out);
  if (focusKey) {
    for (const b of Array.from(box.querySelectorAll<HTMLElement>("button.action"))) {
      if (`${b.dataset.combatant}|${b.dataset.key}|${b.dataset.label}` === focusKey) { b.focus(); break; }
    }
  }
  // Each button with odds shows those of the command its form gives: the open form's as it is
  // filled, the others' untouched.
  for (const o of odds) board.show(o.slot, oddsKind(o.lc), o.slot === form?.slot ? form.command() : quietly(() => defaultCommand(o.lc)));
}

// oddsKind names the action whose odds a button shows.
const oddsKind = (lc: LegalCommand) => `${lc.action!.key}|${lc.action!.name}|${lc.action!.description}`;

// quietly is f's value, or undefined when it throws.
function quietly<T>(f: () => T): T | undefined {
  try { return f(); } catch { return undefined; }
}

function choose(key: string, lc: LegalCommand) {
  const required = lc.action!.choices.some((c) => c.required);
  if (!lc.action!.choices.length || (!required && lc.action!.reaction)) {
    submit(lc.command!);
    return;
  }
  view!.open = view!.open === key ? undefined : key;
  render();
  document.querySelector<HTMLElement>("#choices select, #choices input")?.focus();
}

function choiceForm(st: EncounterState, lc: LegalCommand, slot: string): { form: HTMLFormElement; command: () => Command | undefined } {
  const a = lc.action!;
  const form = h("form", { id: "choices", class: "choices" });
  const fields: { choice: Choice; read: () => string[] }[] = [];
  a.choices.forEach((c, i) => {
    const id = `choice-${i}`;
    const label = c.description || c.field;
    if (c.options.length && !isSelect(c)) {
      // A repeated field: several of its options, within its budget.
      const set = h("fieldset", { "data-field": c.field }, h("legend", {}, label + (c.budget ? ` (≤ ${c.budget})` : "")));
      c.options.forEach((o, j) => set.append(h("label", {}, h("input", { type: "checkbox", name: id, value: o.value, id: `${id}-${j}` }), o.label || o.value, o.cost ? ` (${o.cost})` : "")));
      fields.push({ choice: c, read: () => Array.from(set.querySelectorAll<HTMLInputElement>("input:checked"), (x) => x.value) });
      form.append(set);
    } else if (isSelect(c)) {
      const sel = h("select", { id, name: c.field, "data-field": c.field, required: c.required });
      if (!c.required) sel.append(h("option", { value: "" }, "—"));
      for (const o of c.options) sel.append(h("option", { value: o.value }, o.label || o.value));
      fields.push({ choice: c, read: () => (sel.value ? [sel.value] : []) });
      form.append(h("label", { for: id }, label), sel);
    } else {
      const inp = h("input", { id, name: c.field, "data-field": c.field, required: c.required, type: c.min || c.max ? "number" : "text" });
      if (c.min || c.max) { inp.min = String(c.min); inp.max = String(c.max); }
      fields.push({ choice: c, read: () => (inp.value ? [inp.value] : []) });
      form.append(h("label", { for: id }, label), inp);
    }
  });
  const withOdds = hasOdds(lc);
  form.append(h("div", { class: "actions" },
    h("button", { type: "submit", id: "choices-submit" }, `${w().choose}: ${a.name}`),
    h("button", { type: "button", onclick: () => { view!.open = undefined; render(); } }, w().cancel)));
  if (withOdds) {
    form.append(h("p", { class: "odds odds-line", id: "choices-odds", "data-odds-slot": slot, "aria-live": "polite", hidden: true }),
      h("details", { class: "odds-detail", id: "choices-odds-detail", "data-odds-slot": slot, hidden: true }));
  }
  const build = () => buildCommand(lc, (_, i) => fields[i].read());
  const command = () => (withOdds ? quietly(build) : undefined);
  // The odds follow the choices: each change asks them again (debounced, the stale request cancelled).
  if (withOdds) for (const ev of ["input", "change"]) form.addEventListener(ev, () => board.show(slot, oddsKind(lc), command()));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    try {
      const cmd = build();
      view!.open = undefined;
      submit(cmd);
    } catch (err) {
      say(err instanceof Error ? err.message : String(err));
    }
  });
  void st;
  return { form, command };
}

async function submit(command: Command) {
  if (!view) return;
  say("");
  try {
    await encounters.submit({ encounterId: view.id, commandId: commandId(), command });
    scheduleRefresh();
  } catch (err) {
    sayError(err);
  }
}

// ---- The GM's controls.

function renderGM(st: EncounterState) {
  const box = $("gm");
  if (box.dataset.status === String(st.status) && box.dataset.count === String(st.combatants.length)) return;
  box.dataset.status = String(st.status);
  box.dataset.count = String(st.combatants.length);
  const out: Node[] = [];
  const row = h("div", { class: "actions" });
  if (st.status === EncounterStatus.SETUP) row.append(h("button", { type: "button", id: "start", onclick: () => gmCall(() => encounters.startEncounter({ encounterId: st.encounterId, commandId: commandId() })) }, w().start));
  if (st.status !== EncounterStatus.ENDED && myRole(st) === Role.GM) row.append(h("button", { type: "button", id: "end", onclick: () => gmCall(() => encounters.endEncounter({ encounterId: st.encounterId, commandId: commandId(), reason: "ended from the page" })) }, w().end));
  out.push(row);
  if (st.status !== EncounterStatus.ENDED) {
    const file = h("input", { type: "file", id: "sheets", multiple: true, accept: ".yaml,.yml,.json,application/json,text/yaml" });
    file.addEventListener("change", () => addSheets(st.encounterId, file));
    out.push(h("p", {}, h("label", { for: "sheets" }, w().add), file));
    // Invites: a player of some combatants, or an observer.
    const form = h("form", { id: "invite" });
    const set = h("fieldset", {}, h("legend", {}, `${w().invite} ${w().invitePlayer}`));
    for (const c of st.combatants) set.append(h("label", {}, h("input", { type: "checkbox", name: "combatant", value: c.id }), c.name));
    const observer = h("label", {}, h("input", { type: "checkbox", id: "invite-observer" }), w().inviteObserver);
    const link = h("input", { type: "url", id: "invite-link", readonly: true, "aria-label": w().link });
    form.append(set, observer, h("div", { class: "actions" }, h("button", { type: "submit", id: "invite-submit" }, w().invite)), link);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const ids = Array.from(set.querySelectorAll<HTMLInputElement>("input:checked"), (x) => x.value);
      const asObserver = (observer.querySelector("input") as HTMLInputElement).checked;
      try {
        const res = await invites.createInvite({ encounterId: st.encounterId, commandId: commandId(), role: asObserver ? Role.OBSERVER : Role.PLAYER, combatantIds: asObserver ? [] : ids });
        link.value = res.url;
        link.select();
        say(`${w().link}: ${res.principal}`);
      } catch (err) {
        sayError(err);
      }
    });
    out.push(form);
  }
  box.replaceChildren(...out);
}

async function gmCall(f: () => Promise<unknown>) {
  say("");
  try {
    await f();
    scheduleRefresh();
  } catch (err) {
    sayError(err);
  }
}

async function addSheets(id: string, input: HTMLInputElement) {
  for (const f of Array.from(input.files ?? [])) {
    try {
      const data = parseYAML(await f.text()) as JsonValue;
      const combatant: Combatant = fromJson(CombatantSchema, data);
      await encounters.addCombatant({ encounterId: id, commandId: commandId(), combatant });
      say(`+ ${combatant.name}`);
    } catch (err) {
      say(`${f.name}: ${err instanceof ConnectError ? err.rawMessage : err instanceof Error ? err.message : String(err)}`);
      break;
    }
  }
  input.value = "";
  if (view) { $("gm").dataset.count = ""; scheduleRefresh(); }
}

async function rewind(seq: bigint) {
  if (!view) return;
  await gmCall(() => encounters.rewindEncounter({ encounterId: view!.id, commandId: commandId(), toSequence: seq, reason: "rewound from the page" }));
}

// ---- Home: create an encounter (a GM with a token).

function showHome() {
  view?.watch?.abort();
  view = undefined;
  $("title").textContent = "";
  $("main").className = "";
  const me = principal();
  $("who").textContent = me.principal;
  if (!token()) {
    $("main").replaceChildren(h("section", {}, h("p", {}, "Open the invite link your GM gave you, or a link with your token: ", h("code", {}, "#/?token=…"), " (", h("code", {}, "fray token --as NAME"), ").")));
    return;
  }
  // The form comes once the rule systems are known: it offers those the server has, each with
  // the versions an encounter may pin (the latest by default).
  void loadRulesets().then((list) => {
    if (view) return; // the reader went on to an encounter meanwhile
    const name = h("input", { id: "new-name", type: "text", class: "wide", required: true, value: "" });
    const system = h("select", { id: "new-system" });
    for (const rs of list) if (rs.latest) system.append(h("option", { value: rs.latest.id }, rs.latest.name));
    const version = h("select", { id: "new-version" });
    const versions = () => {
      const rs = list.find((r) => r.latest?.id === system.value);
      version.replaceChildren(h("option", { value: "0" }, w().latest), ...[...(rs?.versions ?? [])].reverse().map((v) => h("option", { value: String(v) }, `v${v}`)));
    };
    versions();
    system.addEventListener("change", versions);
    const form = h("form", { id: "create" }, h("label", { for: "new-name" }, w().name), name, h("label", { for: "new-system" }, w().system), system,
      h("label", { for: "new-version" }, w().version), version,
      h("div", { class: "actions" }, h("button", { type: "submit", id: "create-submit" }, w().create)));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const res = await encounters.createEncounter({ commandId: commandId(), encounter: { name: name.value, ruleSystem: system.value, rulesVersion: Number(version.value) } });
        location.hash = `#/encounter/${encodeURIComponent(res.encounterId)}`;
      } catch (err) {
        sayError(err);
      }
    });
    $("main").replaceChildren(h("section", {}, h("h2", {}, w().create), form));
  }, sayError);
}

// ---- Start.

function route() {
  const r = readRoute();
  say("");
  if (r.encounter) {
    if (view?.id !== r.encounter) void showEncounter(r.encounter);
  } else {
    showHome();
  }
}

function start() {
  const sel = $("language") as HTMLSelectElement;
  sel.value = lang;
  document.documentElement.lang = lang;
  sel.addEventListener("change", () => {
    lang = sel.value as Lang;
    localStorage.setItem("fray.language", lang);
    document.documentElement.lang = lang;
    if (view) {
      // The headings and the log in the new language: the log is watched again from the start.
      const id = view.id;
      view.watch?.abort();
      view = undefined;
      void showEncounter(id);
    } else {
      showHome();
    }
  });
  window.addEventListener("hashchange", route);
  route();
}

start();
void create;
