package feerie

import (
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"google.golang.org/protobuf/proto"
)

func protoClone(in *feeriev1.Intent) *feeriev1.Intent { return proto.CloneOf(in) }
