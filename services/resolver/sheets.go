package resolver

import (
	"bytes"
	"container/list"
	"fmt"
	"strings"
	"sync"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// DefaultSheetCacheBytes bounds the memory of the sheets a resolver keeps by digest: 32 MiB
// (about 20,000 Loss sheets).
const DefaultSheetCacheBytes = 32 << 20

// An entry's cost is an estimate of the memory it holds: its sheet decoded (measured: about
// 8 times its encoding, for a Loss sheet of maps, strings and a weapon: 1,619 bytes of heap for
// 179 encoded) and the entry itself (the digest, the list element, the map slot).
const (
	sheetDecodedFactor = 8
	sheetEntryOverhead = 256
)

// sheetCache holds sheets by the digest they were sent with (and checked against), least
// recently used first out, within max bytes (an entry costs sheetDecodedFactor times its
// sheet's encoded size, plus sheetEntryOverhead). What it holds is never changed: the engine replaces a combatant
// rather than changing it, so one sheet serves every request that names it.
type sheetCache struct {
	mu    sync.Mutex
	max   int
	bytes int
	lru   list.List // of *sheetEntry, most recently used at the front
	by    map[[32]byte]*list.Element
}

type sheetEntry struct {
	digest [32]byte
	sheet  *encounterv1.Combatant // holding only the sheet
	size   int
}

func newSheetCache(max int) *sheetCache {
	return &sheetCache{max: max, by: map[[32]byte]*list.Element{}}
}

func (c *sheetCache) get(d [32]byte) (*encounterv1.Combatant, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.by[d]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*sheetEntry).sheet, true
}

// put keeps sheet (a Combatant holding only it) under d, unless it alone is over the bound.
func (c *sheetCache) put(d [32]byte, sheet *encounterv1.Combatant) {
	size := sheetDecodedFactor*proto.Size(sheet) + sheetEntryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.by[d]; ok {
		c.lru.MoveToFront(el)
		return
	}
	if size > c.max {
		return
	}
	c.by[d] = c.lru.PushFront(&sheetEntry{digest: d, sheet: sheet, size: size})
	c.bytes += size
	for c.bytes > c.max {
		old := c.lru.Back()
		e := old.Value.(*sheetEntry)
		c.lru.Remove(old)
		delete(c.by, e.digest)
		c.bytes -= e.size
	}
}

// stats is how many sheets the cache holds and their cost in bytes.
func (c *sheetCache) stats() (n, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.by), c.bytes
}

// maxMissingNamed bounds the combatant ids a SHEETS_NOT_CACHED refusal names.
const maxMissingNamed = 16

// fillSheets gives each combatant of req's state that was sent without its sheet the sheet
// kept under its digest, and keeps each sheet sent with a digest, after checking that the
// digest is the sheet's: a sheet is only ever found under the digest of its own content. It
// changes req's combatants (the request is the handler's own, decoded for this call).
func (s *Server) fillSheets(req *rulesv1.ResolveRequest) error {
	digests := req.GetSheetSha256()
	if len(digests) == 0 {
		return nil
	}
	combatants := req.GetState().GetCombatants()
	if len(digests) != len(combatants) { // validate.Request says so first, over gRPC
		return sheets.WithReason(codes.InvalidArgument, fmt.Sprintf("sheet_sha256 has %d entries for the state's %d combatants: one per combatant, in order (or none)", len(digests), len(combatants)), sheets.ReasonDigestMismatch, nil)
	}
	var missing []string
	for i, d := range digests {
		if len(d) == 0 {
			continue
		}
		var key [32]byte
		if len(d) != len(key) {
			return sheets.WithReason(codes.InvalidArgument, fmt.Sprintf("sheet_sha256[%d] has %d bytes: a sha256 has 32", i, len(d)), sheets.ReasonDigestMismatch, nil)
		}
		copy(key[:], d)
		c := combatants[i]
		if c.GetSheet() != nil {
			if !bytes.Equal(sheets.Digest(c), d) {
				return sheets.WithReason(codes.InvalidArgument,
					fmt.Sprintf("sheet_sha256[%d] is not the digest of the sheet of combatant %q sent with it (sheets.Digest): a sheet is kept only under its own digest", i, c.GetId()),
					sheets.ReasonDigestMismatch, map[string]string{"combatant": c.GetId()})
			}
			s.sheets.put(key, &encounterv1.Combatant{Sheet: c.Sheet})
			continue
		}
		if sheet, ok := s.sheets.get(key); ok {
			c.Sheet = sheet.Sheet
			continue
		}
		missing = append(missing, c.GetId())
	}
	if len(missing) == 0 {
		return nil
	}
	named := missing[:min(len(missing), maxMissingNamed)]
	return sheets.WithReason(codes.FailedPrecondition,
		fmt.Sprintf("this resolver holds no sheet for %d combatants (%s): send their sheets in full, with their sheet_sha256", len(missing), strings.Join(named, ", ")),
		sheets.ReasonNotCached, map[string]string{"combatants": strings.Join(named, ",")})
}
