#!/usr/bin/env python3
"""A fray client in Python: plays a short fight of Les Chants de Loss on a running fray.

It creates an encounter, adds Diego and Le malfrat from the README's sheets, and plays
exchanges by taking the commands the server pre-fills for each legal action (filling the
choices they leave open), printing the server's narration of every event. Then it ends the
encounter and checks the revealed dice seed against the sha256 published when it was created.

Stubs: generate them with protoc (see the README, "Clients in other languages") and put
them on PYTHONPATH. Needs Python's grpcio, protobuf and PyYAML.
"""
import argparse
import hashlib
import os
import sys
import uuid

import grpc
import yaml
from google.protobuf import json_format

from fray.encounter.v1 import encounter_pb2 as enc
from fray.encounter.v1 import encounter_service_pb2 as svc
from fray.encounter.v1 import encounter_service_pb2_grpc as svc_grpc

HERE = os.path.dirname(os.path.abspath(__file__))
SHEETS = os.path.join(HERE, "..", "..", "cli", "testdata", "sheets")
# What the GM takes first, by the legal actions' stable keys (DescribeRuleset's action names).
PREFERENCE = ["attack", "dodge", "parry", "take the blow", "pass"]


def command_id():
    return uuid.uuid4().hex


def load_sheet(name):
    """A fray.encounter.v1.Combatant from a YAML sheet (protojson field names)."""
    with open(os.path.join(SHEETS, name), encoding="utf-8") as f:
        return json_format.ParseDict(yaml.safe_load(f), enc.Combatant())


def fill(command, path, value):
    """Sets the field at path ("loss.attack.target_id") of command to value, a string as a
    Choice's options give it (an id, a name, an enum value's name, "true")."""
    *parents, name = path.split(".")
    msg = command
    for p in parents:
        msg = getattr(msg, p)
    field = msg.DESCRIPTOR.fields_by_name[name]
    if field.enum_type is not None:
        value = field.enum_type.values_by_name[value].number
    elif field.type == field.TYPE_BOOL:
        value = value == "true"
    elif field.cpp_type in (field.CPPTYPE_INT32, field.CPPTYPE_INT64, field.CPPTYPE_UINT32, field.CPPTYPE_UINT64):
        value = int(value)
    if field.label == field.LABEL_REPEATED:
        getattr(msg, name).append(value)
    else:
        setattr(msg, name, value)


def choose(actions):
    """The legal command to take: the first by PREFERENCE, its required choices filled with
    their first option (or least value)."""
    by_key = {a.action.key: a for a in actions}
    key = next((k for k in PREFERENCE if k in by_key), actions[0].action.key)
    legal = by_key[key]
    command = enc.Command()
    command.CopyFrom(legal.command)
    for choice in legal.action.choices:
        if choice.required:
            fill(command, choice.field, choice.options[0].value if choice.options else str(choice.min))
    return legal.action, command


class Client:
    def __init__(self, addr, token, language):
        self.channel = grpc.insecure_channel(addr)
        self.stub = svc_grpc.EncounterServiceStub(self.channel)
        self.metadata = [("authorization", "Bearer " + token)]
        self.language = language
        self.narrated = 0  # the sequence of the last event narrated

    def call(self, method, request):
        return getattr(self.stub, method)(request, metadata=self.metadata, timeout=10)

    def narrate(self, encounter_id, events):
        """Prints the server's narration of the events up to the last of events."""
        if not events:
            return
        last = events[-1].sequence
        stream = self.stub.WatchEncounter(
            svc.WatchEncounterRequest(encounter_id=encounter_id, from_sequence=self.narrated + 1, language=self.language),
            metadata=self.metadata, timeout=10)
        for resp in stream:
            print(resp.narration, flush=True)
            self.narrated = resp.event.sequence
            if resp.event.sequence >= last:
                break
        stream.cancel()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addr", default=os.environ.get("FRAY_ADDR", "127.0.0.1:7070"), help="fray's address (env FRAY_ADDR)")
    ap.add_argument("--token", default=os.environ.get("FRAY_TOKEN"), help="a GM's token: `fray token` prints one (env FRAY_TOKEN)")
    ap.add_argument("--language", default="en", help="the narration's language: en or fr")
    ap.add_argument("--steps", type=int, default=12, help="the most commands to play")
    args = ap.parse_args()
    if not args.token:
        sys.exit("give a token: --token \"$(./fray token)\" (or FRAY_TOKEN)")
    c = Client(args.addr, args.token, args.language)

    created = c.call("CreateEncounter", svc.CreateEncounterRequest(
        command_id=command_id(), encounter=enc.CreateEncounter(name="Ruelle sombre", rule_system="loss")))
    eid = created.encounter_id
    commitment = created.events[0].encounter_created.seed_sha256
    c.narrate(eid, created.events)
    for sheet in ("diego.yaml", "ruffian.yaml"):
        added = c.call("AddCombatant", svc.AddCombatantRequest(
            encounter_id=eid, command_id=command_id(), combatant=load_sheet(sheet)))
        c.narrate(eid, added.events)
    c.narrate(eid, c.call("StartEncounter", svc.StartEncounterRequest(encounter_id=eid, command_id=command_id())).events)

    for _ in range(args.steps):
        got = c.call("GetEncounter", svc.GetEncounterRequest(encounter_id=eid, legal_for_all=True))
        out = [x.combatant_id for x in got.state.combatants
               if x.appearance == enc.APPEARANCE_OUT_OF_THE_FIGHT]
        if out or not got.may_act:
            break
        # A pending attack waits for its answer first; else the first who may act.
        who = (list(got.awaiting_reaction) or list(got.may_act))[0]
        actions = next(a.actions for a in got.actions if a.combatant_id == who)
        action, command = choose(actions)
        print(f"> {who}: {action.key}" + (f" ({action.name})" if action.name != action.key else ""), flush=True)
        done = c.call("Submit", svc.SubmitRequest(encounter_id=eid, command_id=command_id(), command=command))
        c.narrate(eid, done.events)

    ended = c.call("EndEncounter", svc.EndEncounterRequest(encounter_id=eid, command_id=command_id(), reason="example over"))
    c.narrate(eid, ended.events)
    seed = ended.events[-1].encounter_ended.seed
    if hashlib.sha256(seed).digest() != commitment:
        sys.exit(f"seed NOT verified: sha256 {hashlib.sha256(seed).hexdigest()} != {commitment.hex()}")
    print(f"seed verified: sha256({seed.hex()}) = {commitment.hex()}")


if __name__ == "__main__":
    main()
