// The command a legal action's form gives: the pre-filled command with the values chosen for
// its choices, filled as rules/engine.Fill does.
import { fromJson, toJson, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { CommandSchema, type Command } from "./gen/fray/encounter/v1/encounter_pb";
import type { LegalCommand } from "./gen/fray/encounter/v1/encounter_service_pb";
import type { Choice } from "./gen/fray/ruleset/v1/ruleset_pb";

// A choice the form shows as a select (one of its options), not as checkboxes.
export const isSelect = (c: Choice) => c.options.length > 0 && !(c.max > 1 || c.budget > 0);

// buildCommand fills lc's command with the values read for each of its choices; it throws
// when a choice's budget is overspent or a field cannot be filled.
export function buildCommand(lc: LegalCommand, read: (c: Choice, i: number) => string[]): Command {
  const json = toJson(CommandSchema, lc.command!, { useProtoFieldName: true }) as JsonObject;
  lc.action!.choices.forEach((c, i) => {
    const values = read(c, i);
    if (c.budget) {
      const spent = values.reduce((n, v) => n + (c.options.find((o) => o.value === v)?.cost ?? 0), 0);
      if (spent > c.budget) throw new Error(`${c.description}: ${spent} > ${c.budget}`);
    }
    for (const v of values) fill(json, c.field, v);
  });
  return fromJson(CommandSchema, json as JsonValue);
}

// defaultCommand is the command lc's form gives untouched: a required select holds its first
// option, every other field is empty.
export function defaultCommand(lc: LegalCommand): Command {
  return buildCommand(lc, (c) => (isSelect(c) && c.required ? [c.options[0].value] : []));
}

// fill sets the field a Choice names (a path of protobuf field names from Command) in the
// command's JSON to value, as rules/engine.Fill does: a repeated field gets value appended, a
// map takes "key=number", an enum its value's name, a bool "true"/"false", a number in decimal.
export function fill(json: JsonObject, path: string, value: string) {
  let desc: DescMessage = CommandSchema;
  let obj: JsonObject = json;
  const parts = path.split(".");
  for (const [i, name] of parts.entries()) {
    if (desc.typeName === "google.protobuf.Struct") {
      // A plug-in's JSON (a plugin arm): the rest of the path are its keys.
      fillJson(obj, parts.slice(i), path, value);
      return;
    }
    const f = desc.fields.find((x) => x.name === name);
    if (!f) throw new Error(`${path}: no field ${name}`);
    if (i < parts.length - 1) {
      if (f.fieldKind !== "message") throw new Error(`${path}: ${name} is not a message`);
      obj[name] ??= {};
      obj = obj[name] as JsonObject;
      desc = f.message;
      continue;
    }
    const scalar = (kind: string, v: string): JsonValue => (kind === "bool" ? v === "true" : kind === "number" ? Number(v) : v);
    switch (f.fieldKind) {
      case "map": {
        const [k, n] = value.split("=", 2);
        const m = (obj[name] ??= {}) as JsonObject;
        m[k] = Number(n);
        break;
      }
      case "list": {
        const l = (obj[name] ??= []) as JsonValue[];
        l.push(f.listKind === "scalar" ? scalar(kindOf(f.scalar), value) : value);
        break;
      }
      case "scalar":
        obj[name] = scalar(kindOf(f.scalar), value);
        break;
      case "enum":
        obj[name] = value;
        break;
      default:
        throw new Error(`${path}: cannot be filled`);
    }
  }
}

// fillJson is fill in a plug-in's JSON, whose keys carry no types, as rules/engine.fillStruct
// does: the value the pre-filled command holds at the path says how value is written — a number
// where it holds a number, a bool where a bool, appended to a list (as its first entry is
// written), a string otherwise. Objects on the way are made.
function fillJson(obj: JsonObject, keys: string[], path: string, value: string) {
  for (const k of keys.slice(0, -1)) {
    obj[k] ??= {};
    const next = obj[k];
    if (typeof next !== "object" || next === null || Array.isArray(next)) throw new Error(`${path}: ${k} is not an object`);
    obj = next as JsonObject;
  }
  const last = keys[keys.length - 1];
  const like = (held: JsonValue | undefined): JsonValue => {
    if (typeof held === "number") {
      const n = Number(value);
      if (value.trim() === "" || Number.isNaN(n)) throw new Error(`${path}: "${value}" is not a number`);
      return n;
    }
    if (typeof held === "boolean") {
      if (value !== "true" && value !== "false") throw new Error(`${path}: "${value}" is not true or false`);
      return value === "true";
    }
    return value;
  };
  const held = obj[last];
  if (Array.isArray(held)) held.push(like(held[0]));
  else obj[last] = like(held);
}

// kindOf names how a scalar is written in JSON: bool, number (32-bit and floats) or string.
function kindOf(t: number): string {
  // ScalarType: DOUBLE 1, FLOAT 2, INT64 3, UINT64 4, INT32 5, FIXED64 6, FIXED32 7, BOOL 8,
  // STRING 9, BYTES 12, UINT32 13, SFIXED32 15, SFIXED64 16, SINT32 17, SINT64 18.
  if (t === 8) return "bool";
  if ([1, 2, 5, 7, 13, 15, 17].includes(t)) return "number";
  return "string";
}
