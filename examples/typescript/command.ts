// Builds the command that takes a legal action with the stubs generated into gen/ (see the
// README, "Clients in other languages"); tsc type-checks it with them. A client fills the
// choices a fray.encounter.v1.LegalCommand leaves open the same way, then sends it with
// EncounterService.Submit (with @connectrpc/connect and its gRPC transport, for one).
import { create, toJsonString } from "@bufbuild/protobuf";
import { CommandSchema } from "./gen/fray/encounter/v1/encounter_pb.js";
import { PassSchema } from "./gen/fray/loss/v1/loss_pb.js";

export function lossPass(combatantId: string) {
  // The oneof case is passTurn (the field pass_turn); its JSON name is still "pass".
  return create(CommandSchema, {
    kind: {
      case: "loss",
      value: { combatantId, kind: { case: "passTurn", value: create(PassSchema) } },
    },
  });
}

export const json: string = toJsonString(CommandSchema, lossPass("diego")); // {"loss":{"combatantId":"diego","pass":{}}}
