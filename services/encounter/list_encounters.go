package encounter

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Paging of ListEncounters.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// pageToken is where a page of ListEncounters ends: the last encounter it listed, in the
// order of the list (the most recent activity first, then by id).
type pageToken struct {
	Last int64  `json:"t"`
	ID   string `json:"id"`
}

func (p pageToken) String() string {
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}

func parsePageToken(s string) (pageToken, error) {
	var p pageToken
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err != nil || p.ID == "" {
		return pageToken{}, refusal.BadRequest("page_token", "page_token %q is not one this service gave: send the next_page_token of the previous page, or none for the first", s)
	}
	return p, nil
}

// before reports whether a comes before b in the list: more recent activity first, then by id.
func listedBefore(aLast int64, aID string, bLast int64, bID string) bool {
	if aLast != bLast {
		return aLast > bLast
	}
	return aID < bID
}

// ListEncounters lists the encounters of the caller's tenant in which the caller has a role,
// the most recently active first, a page at a time (listpage.go).
func (s *Service) ListEncounters(ctx context.Context, req *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	size := int(req.GetPageSize())
	switch {
	case size == 0:
		size = DefaultPageSize
	case size < 0 || size > MaxPageSize:
		return nil, refusal.BadRequest("page_size", "page_size %d: give 1 to %d (0 for %d)", req.GetPageSize(), MaxPageSize, DefaultPageSize)
	}
	var after *pageToken
	if t := req.GetPageToken(); t != "" {
		p, err := parsePageToken(t)
		if err != nil {
			return nil, err
		}
		after = &p
	}
	var page []listed
	if whole, ok := s.listings.get(who.principal, time.Now()); ok && after != nil {
		page = cut(whole, after, size)
	} else {
		c := newCollector(size, after)
		if err := s.eachSummary(ctx, who, func(sum store.Summary) { c.offer(listedOf(sum, who.principal)) }); err != nil {
			return nil, err
		}
		var whole []listed
		page, whole = c.done()
		if len(whole) > size { // pages will follow
			s.listings.put(who.principal, whole, time.Now())
		}
	}
	out := &encounterv1.ListEncountersResponse{}
	for i, l := range page {
		if i == size {
			last := page[size-1]
			out.NextPageToken = pageToken{Last: last.last.UnixNano(), ID: last.id}.String()
			break
		}
		out.Encounters = append(out.Encounters, &encounterv1.EncounterSummary{
			EncounterId: l.id, Name: l.name, RuleSystem: l.system, Status: l.status, Sequence: l.seq,
			LastActivity: timestamppb.New(l.last), Role: l.role,
		})
	}
	return out, nil
}
